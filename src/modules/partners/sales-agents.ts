import type { EntityManager } from '@mikro-orm/postgresql';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Company, CompanyType } from './entities/company';
import { SalesAgent } from './entities/sales-agent';

/**
 * A sales company's agents, the owners of agent promo codes: registered and deactivated by the
 * operator here, where their table lives (decision record 0111); promos looks owners up through
 * the two finders when it creates a code.
 */

export async function createSalesAgent(em: EntityManager, companyId: string, name: string): Promise<SalesAgent> {
  const company = await findSalesCompany(em, companyId);
  const entity = em.create(SalesAgent, { company, name });
  await em.flush();
  return entity;
}

/** The agent's codes are refused from now on (a code's owner must be active); orders that carry one keep it. */
export async function deactivateSalesAgent(em: EntityManager, id: string): Promise<SalesAgent> {
  const entity = await findSalesAgent(em, id);
  entity.active = false;
  await em.flush();
  return entity;
}

export async function findSalesCompany(em: EntityManager, id: string): Promise<Company> {
  // A malformed id is "no such company", not a database error.
  const company = await em.findOne(Company, { id }).catch(() => null);
  if (!company) throw new OperatorRefusal(`no company ${id}`);
  if (company.type !== CompanyType.SalesCompany)
    throw new OperatorRefusal(`company ${company.id} is not a SALES_COMPANY`);
  return company;
}

export async function findSalesAgent(em: EntityManager, id: string): Promise<SalesAgent> {
  const found = await em.findOne(SalesAgent, { id }).catch(() => null);
  if (!found) throw new OperatorRefusal(`no agent ${id}`);
  return found;
}
