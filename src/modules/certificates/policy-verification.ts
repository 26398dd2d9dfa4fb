import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { isReference } from '../orders';
import { canonicalPolicyNumber, policyStanding, type PolicyStanding } from './rules/policy-standing';
import { travellerInitials } from './rules/traveller-disclosure';
import { passportNameInReadingOrder } from './rules/passport-name';
import { isLatin, transliteration } from './rules/transliteration';
import { Order } from '../orders/entities/order';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { businessToday, setTestToday } from '../../kernel/business-today';
import type { TestClocks } from '../../kernel/test-clock';
import type { Minor } from '../../kernel/money';
import { amendmentsOf } from './amendments';
import { versionOfCheckCode } from './rules/certificate-version';

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
      /** The trek the cover is for, in the words the page prints. */
      route: RouteOnPage;
      /** The package's helicopter evacuation limit per person, in NPR minor units, when it covers evacuation. */
      evacuationLimit?: Minor;
      /** The certificate version in force: 1, then one more for each change of its dates after payment. */
      version: number;
      /** Only with the policy's check code: a typed number alone reveals no one. */
      travellerInitials?: string;
      /**
       * With the check code, but no name in Latin letters to take initials from: a native-script
       * name with neither a passport name nor a transliteration (decision record 0103). The page
       * says so instead of printing initials an officer cannot match ("王.").
       */
      noLatinName?: boolean;
      /** Whether a check code came with the lookup, and whether it is this policy's current version's, an earlier one's, or none. */
      checkCode: CheckCodeResult;
      /** The version whose check code was typed, when it is an earlier, superseded one. */
      supersededVersion?: number;
      /** The Kathmandu date the standing is for. */
      today: string;
      /** The Nepal date the cover's dates last changed after the policy was issued. */
      amendedOn?: string;
      /** What that change was, without the earlier dates ("cover extended under the Lukla disruption D-2026-0001 to 2026-12-16"). */
      lastChange?: string;
      /** The Nepal date of the cancellation, on a cancelled policy. */
      cancelledOn?: string;
    };

/** A registered route with its altitude, a route the partner typed in, or none named (any registered route). */
export type RouteOnPage =
  | { kind: 'REGISTERED'; name: string; maxAltitude: number }
  | { kind: 'AS_STATED'; name: string }
  | { kind: 'ANY_REGISTERED' };

/**
 * A wrong code is said to be wrong: an officer who typed it from the paper must not just see less.
 * An earlier version's code is the policy's but its paper is superseded (decision record 0100).
 */
export type CheckCodeResult = 'ABSENT' | 'MATCHED' | 'SUPERSEDED' | 'MISMATCHED';

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
  const order = await em.findOne(Order, { policyNumber }, { populate: ['traveller', 'ctg', 'route'] });
  if (!order) return { found: false, lookedUp: policyNumber };
  // The page is public: a sandbox policy is judged on its company's test clock, when set.
  if (options.testClocks) setTestToday(await options.testClocks.of(em, order.company.id));
  const today = businessToday(now);
  const standing = policyStanding(order, today);
  const cancellation = standing === 'CANCELLED' ? await em.findOne(OrderCancellation, { order: order.id }) : null;
  const { nameAsInPassport, name } = order.traveller;
  const amendments = order.paidAt ? await amendmentsOf(em, order, order.paidAt) : [];
  const version = amendments.length + 1;
  const lastAmendment = amendments[amendments.length - 1];
  const typedVersion = typedCodeVersion(order.verificationCode, version, code);
  const checkCode: CheckCodeResult =
    typedVersion === 'ABSENT'
      ? 'ABSENT'
      : typedVersion === undefined
        ? 'MISMATCHED'
        : typedVersion < version
          ? 'SUPERSEDED'
          : 'MATCHED';
  const evacuation = order.ctg.coverage.find((line) => line.code === EVACUATION_LINE);
  const unlocked = checkCode === 'MATCHED' || checkCode === 'SUPERSEDED';
  // The passport's Latin name, a Latin name as given, or the certificate's transliteration: never a native script (decision record 0103).
  const latinName = nameAsInPassport
    ? passportNameInReadingOrder(nameAsInPassport)
    : isLatin(name)
      ? name
      : transliteration(name);
  return {
    found: true,
    policyNumber,
    standing,
    today,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    // Every amendment after payment counts (a date change, an extension, one under a disruption: decision record 0102).
    amendedOn: lastAmendment ? kathmanduToday(lastAmendment.at) : undefined,
    lastChange: lastAmendment?.publicChange,
    cancelledOn: cancellation ? kathmanduToday(cancellation.cancelledAt) : undefined,
    maxAltitude: order.ctg.maxAltitude,
    underwriter: order.ctg.insuranceCompany,
    route: routeOnPage(order),
    evacuationLimit: evacuation?.coverageAmount,
    version,
    checkCode,
    supersededVersion: checkCode === 'SUPERSEDED' && typeof typedVersion === 'number' ? typedVersion : undefined,
    // A checkpoint compares them with the passport: its Latin name, when the partner gave it, is what the officer can read.
    // An earlier version's paper is the same traveller's: the initials, beside the word that it is superseded.
    travellerInitials: unlocked && latinName !== undefined ? travellerInitials(latinName) : undefined,
    noLatinName: unlocked && latinName === undefined ? true : undefined,
  };
}

/** The coverage line of a package that pays for a helicopter evacuation (catalogue code). */
const EVACUATION_LINE = 'EMERGENCY_EVACUATION';

function routeOnPage(order: Order): RouteOnPage {
  if (order.route) return { kind: 'REGISTERED', name: order.route.name, maxAltitude: order.route.maxAltitude };
  if (order.customRouteName) return { kind: 'AS_STATED', name: order.customRouteName };
  return { kind: 'ANY_REGISTERED' };
}

/** Typed from paper: case and spaces do not matter. An empty field is no code; a code of no version is undefined. */
function typedCodeVersion(
  issued: string | undefined,
  current: number,
  typed: string | undefined,
): number | 'ABSENT' | undefined {
  const entered = typed?.replace(/\s+/g, '').toUpperCase();
  if (!entered) return 'ABSENT';
  return issued === undefined || issued === null ? undefined : versionOfCheckCode(issued, current, entered);
}
