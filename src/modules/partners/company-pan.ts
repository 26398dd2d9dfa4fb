import type { EntityManager } from '@mikro-orm/postgresql';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Company } from './entities/company';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Nepal PAN (and VAT) number: nine digits, as the Inland Revenue Department issues it. */
const PAN = /^\d{9}$/;

export interface PanChange {
  id: string;
  name: string;
  previousPanNumber: string | null;
  panNumber: string;
}

/**
 * `ops company set-pan`: the company's PAN/VAT number, printed on its commission statements from
 * then on (decision record 0098). The ledger does not keep it: a statement prints the one on file.
 */
export async function setCompanyPan(em: EntityManager, id: string, pan: string): Promise<PanChange> {
  if (!PAN.test(pan)) throw new OperatorRefusal(`a PAN/VAT number is nine digits (got "${pan}")`);
  return em.transactional(async (tx) => {
    const company = UUID.test(id) ? await tx.findOne(Company, id) : null;
    if (!company) throw new OperatorRefusal(`no company ${id}`);
    const previousPanNumber = company.panNumber ?? null;
    company.panNumber = pan;
    return { id, name: company.name, previousPanNumber, panNumber: pan };
  });
}
