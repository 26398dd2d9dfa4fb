import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { isReference } from '../orders';
import { policyStanding, type PolicyStanding } from './rules/policy-standing';
import { travellerInitials } from './rules/traveller-disclosure';
import { Order } from '../orders/entities/order';

/** What the public verification page may show: nothing for an unknown number, little for a known one. */
export type Verification =
  | { found: false }
  | {
      found: true;
      policyNumber: string;
      standing: PolicyStanding;
      coverageStartDate: string;
      coverageEndDate: string;
      /** The highest altitude the package covers. */
      maxAltitude: number;
      travellerInitials: string;
    };

/** Far longer than any real policy number: longer input is not looked up. */
const MAX_POLICY_NUMBER_LENGTH = 32;

/**
 * GET /verify/{policyNumber}: the standing of the policy on the Kathmandu date of `now`. Input
 * that is not a policy number is "not found" without a query, exactly like an unknown number, so
 * that no answer tells a guess from a typo.
 */
export async function verifyPolicy(em: EntityManager, policyNumber: string, now = new Date()): Promise<Verification> {
  if (policyNumber.length > MAX_POLICY_NUMBER_LENGTH || !isReference('POL', policyNumber)) return { found: false };
  const order = await em.findOne(Order, { policyNumber }, { populate: ['traveller', 'ctg'] });
  if (!order) return { found: false };
  return {
    found: true,
    policyNumber,
    standing: policyStanding(order, kathmanduToday(now)),
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    maxAltitude: order.ctg.maxAltitude,
    travellerInitials: travellerInitials(order.traveller.name),
  };
}
