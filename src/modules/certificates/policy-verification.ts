import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { isReference } from '../orders';
import { canonicalPolicyNumber, policyStanding, type PolicyStanding } from './rules/policy-standing';
import { travellerInitials } from './rules/traveller-disclosure';
import { passportNameInReadingOrder } from './rules/passport-name';
import { Order } from '../orders/entities/order';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { businessToday, setTestToday } from '../../kernel/business-today';
import type { TestClocks } from '../../kernel/test-clock';

/** What the public verification page may show: the number looked up for an unknown one, little for a known one. */
export type Verification =
  | {
      found: false;
      /** The number as it would be printed, when what was typed has the form of one; otherwise nothing is repeated. */
      lookedUp?: string;
    }
  | {
      found: true;
      policyNumber: string;
      standing: PolicyStanding;
      coverageStartDate: string;
      coverageEndDate: string;
      /** The highest altitude the package covers. */
      maxAltitude: number;
      underwriter: string;
      /** Only with the policy's check code: a typed number alone reveals no one. */
      travellerInitials?: string;
      /** The Kathmandu date the standing is for. */
      today: string;
      /** The Nepal date the cover's dates last changed after the policy was issued. */
      amendedOn?: string;
      /** The Nepal date of the cancellation, on a cancelled policy. */
      cancelledOn?: string;
    };

/** Far longer than any real policy number: longer input is not looked up. */
const MAX_POLICY_NUMBER_LENGTH = 32;

/**
 * GET /verify/{policyNumber}: the standing of the policy on the Kathmandu date of `now`. Input
 * that is not a policy number is "not found" without a query, exactly like an unknown number, so
 * that no answer tells a guess from a typo. The traveller's initials come only with `code`, the
 * check code printed beside the QR code (which the QR link carries).
 */
export async function verifyPolicy(
  em: EntityManager,
  typed: string,
  code?: string,
  options: { testClocks?: TestClocks; now?: Date } = {},
): Promise<Verification> {
  const now = options.now ?? new Date();
  if (typed.length > 2 * MAX_POLICY_NUMBER_LENGTH) return { found: false };
  // A number typed from the paper certificate ("pol 2026 000087") is the one printed: the page is
  // served under the typed URL, naming the canonical number (no redirect: one round trip fewer
  // on a checkpoint's mobile connection, and nothing to cache).
  const policyNumber = canonicalPolicyNumber(typed);
  if (policyNumber.length > MAX_POLICY_NUMBER_LENGTH || !isReference('POL', policyNumber)) return { found: false };
  const order = await em.findOne(Order, { policyNumber }, { populate: ['traveller', 'ctg'] });
  if (!order) return { found: false, lookedUp: policyNumber };
  // The page is public: a sandbox policy is judged on its company's test clock, when set.
  if (options.testClocks) setTestToday(await options.testClocks.of(em, order.company.id));
  const today = businessToday(now);
  const standing = policyStanding(order, today);
  const cancellation = standing === 'CANCELLED' ? await em.findOne(OrderCancellation, { order: order.id }) : null;
  const { nameAsInPassport, name } = order.traveller;
  return {
    found: true,
    policyNumber,
    standing,
    today,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    amendedOn:
      order.amendedAt && order.paidAt && order.amendedAt > order.paidAt ? kathmanduToday(order.amendedAt) : undefined,
    cancelledOn: cancellation ? kathmanduToday(cancellation.cancelledAt) : undefined,
    maxAltitude: order.ctg.maxAltitude,
    underwriter: order.ctg.insuranceCompany,
    // A checkpoint compares them with the passport: its Latin name, when the partner gave it, is what the officer can read.
    travellerInitials: checkCodeMatches(order.verificationCode, code)
      ? travellerInitials(nameAsInPassport ? passportNameInReadingOrder(nameAsInPassport) : name)
      : undefined,
  };
}

/** Typed from paper: case and spaces do not matter. */
function checkCodeMatches(issued: string | undefined, typed: string | undefined): boolean {
  return (
    issued !== undefined && issued !== null && typed !== undefined && typed.replace(/\s+/g, '').toUpperCase() === issued
  );
}
