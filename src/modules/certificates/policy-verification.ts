import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { isReference } from '../orders';
import { canonicalPolicyNumber, policyStanding, type PolicyStanding } from './rules/policy-standing';
import { travellerInitials } from './rules/traveller-disclosure';
import { passportNameInReadingOrder } from './rules/passport-name';
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
      /** The Kathmandu date the standing is for. */
      today: string;
    };

/** Far longer than any real policy number: longer input is not looked up. */
const MAX_POLICY_NUMBER_LENGTH = 32;

/**
 * GET /verify/{policyNumber}: the standing of the policy on the Kathmandu date of `now`. Input
 * that is not a policy number is "not found" without a query, exactly like an unknown number, so
 * that no answer tells a guess from a typo.
 */
export async function verifyPolicy(em: EntityManager, typed: string, now = new Date()): Promise<Verification> {
  if (typed.length > 2 * MAX_POLICY_NUMBER_LENGTH) return { found: false };
  // A number typed from the paper certificate ("pol 2026 000087") is the one printed: the page is
  // served under the typed URL, naming the canonical number (no redirect: one round trip fewer
  // on a checkpoint's mobile connection, and nothing to cache).
  const policyNumber = canonicalPolicyNumber(typed);
  if (policyNumber.length > MAX_POLICY_NUMBER_LENGTH || !isReference('POL', policyNumber)) return { found: false };
  const order = await em.findOne(Order, { policyNumber }, { populate: ['traveller', 'ctg'] });
  if (!order) return { found: false };
  const today = kathmanduToday(now);
  return {
    found: true,
    policyNumber,
    standing: policyStanding(order, today),
    today,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    maxAltitude: order.ctg.maxAltitude,
    // A checkpoint compares them with the passport: its Latin name, when the partner gave it, is what the officer can read.
    travellerInitials: travellerInitials(order.traveller.nameAsInPassport ? passportNameInReadingOrder(order.traveller.nameAsInPassport) : order.traveller.name),
  };
}
