import type { EntityManager } from '@mikro-orm/postgresql';
import { dualStatement, runStatement } from '../../kernel/db/prepared-statement';
import { present } from '../../kernel/narrow';

/** What opening a case needs besides the order row. */
export interface OpeningFacts {
  travellerName: string;
  /** The policy package's maximum altitude, metres. */
  maxAltitude: number;
  /** The order's listed agencies, in the order's own order. */
  agencyIds: string[];
  /** The case already opened under this company's Idempotency-Key, if any. */
  previousCaseId: string | null;
  /** The next number of the case reference sequence; drawn only when the key is new. */
  sequence: string | null;
}

interface FactsRow {
  traveller_name: string;
  max_altitude: number;
  agency_ids: string[];
  previous_case_id: string | null;
  sequence: string | null;
}

const OPENING_FACTS = dualStatement(
  'assistance-opening-facts',
  `
  select t.name as traveller_name, c.max_altitude,
    array(select l.company_id::text from order_travel_company l where l.order_id = o.id order by l.position) as agency_ids,
    p.id::text as previous_case_id,
    case when p.id is null then nextval('assistance_case_ref_seq')::text end as sequence
  from insurance_order o
    join traveller t on t.id = o.traveller_id
    join ctg c on c.id = o.ctg_id
    left join assistance_case p on p.opened_by_company_id = ?::uuid and p.idempotency_key = ?::uuid
  where o.id = ?::uuid`,
);

/**
 * Everything an opening reads after the order, in one statement: each statement is a round trip
 * and, on a loaded host, about a millisecond of the server's CPU in the socket write alone (issue
 * 39's profile); the traveller's and the package's whole rows, hydrated as entities, cost more
 * than the two columns read here.
 */
export async function openingFacts(
  em: EntityManager,
  orderId: string,
  companyId: string,
  idempotencyKey: string,
): Promise<OpeningFacts> {
  const [row] = await runStatement<FactsRow>(em, OPENING_FACTS, [companyId, idempotencyKey, orderId]);
  const facts = present(row, `the order ${orderId} just read`);
  return {
    travellerName: facts.traveller_name,
    maxAltitude: facts.max_altitude,
    agencyIds: facts.agency_ids,
    previousCaseId: facts.previous_case_id,
    sequence: facts.sequence,
  };
}
