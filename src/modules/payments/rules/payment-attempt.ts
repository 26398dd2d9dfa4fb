/**
 * The payment attempt state machine. An attempt is our record of one trip of a customer to a
 * gateway. Its status is our view; `gatewayConfirmed` says whether the gateway's own final word
 * (a verified callback or a status lookup) has been recorded. We may close an attempt ourselves
 * (superseded by a newer key, expired, or its orders paid by another attempt) before the gateway
 * has spoken; if the gateway later reports that it captured the money anyway, that is a late
 * capture: it is recorded, never dropped (see settlementPlan).
 */
export type AttemptStatus =
  'INITIATED' | 'SUCCESS' | 'FAILED' | 'CANCELLED' | 'EXPIRED' | 'REFUND_PENDING' | 'REFUNDED';
/** EXPIRED: the provider itself let the checkout lapse (Khalti's `Expired`); it will never capture it. */
export type GatewayFinalStatus = 'SUCCESS' | 'FAILED' | 'CANCELLED' | 'EXPIRED';

/**
 * Why we closed an attempt without the gateway's word. ORDER_REPRICED: a promo change moved the
 * order's total; ORDER_CANCELLED: an operator cancelled an order it covers.
 */
export type ClosedReason = 'SUPERSEDED' | 'EXPIRED' | 'ORDER_PAID' | 'ORDER_REPRICED' | 'ORDER_CANCELLED';

/**
 * What a provider said it gave back of a captured payment on its own (a refund in its portal, a
 * reversal): PARTIAL (Khalti `Partially Refunded`, eSewa `PARTIAL_REFUND`) or FULL (`Refunded`,
 * `FULL_REFUND`).
 */
export type ProviderReversalKind = 'PARTIAL' | 'FULL';

export interface AttemptState {
  status: AttemptStatus;
  gatewayConfirmed: boolean;
}

/** Statuses of an attempt whose money the gateway captured (paid an order, or owed back). */
const CAPTURED: readonly AttemptStatus[] = ['SUCCESS', 'REFUND_PENDING', 'REFUNDED'];

/**
 * What became of one order's share of a captured attempt: it PAID the order, or it could not
 * (the order was re-priced, cancelled or already paid) and is owed back to the customer,
 * REFUND_PENDING until an operator records the refund (REFUNDED).
 */
export type ShareSettlement = 'PAID' | 'REFUND_PENDING' | 'REFUNDED';

/**
 * The payment status a partner reads for one order of an attempt. A share that did not pay its
 * order never reads SUCCESS, whatever the attempt did for the other orders of its group.
 */
export function shareStatus(
  attemptStatus: AttemptStatus,
  settlement: ShareSettlement | null | undefined,
): AttemptStatus {
  if (settlement === 'PAID') return 'SUCCESS';
  if (settlement) return settlement;
  return attemptStatus;
}

/** What a gateway's final word does to an attempt. */
export type GatewayWordEffect =
  /** The gateway already spoke: a second word (a replayed callback) changes nothing. */
  | { kind: 'REPLAY' }
  /** The open attempt ends with the gateway's status. */
  | { kind: 'COMPLETE'; status: GatewayFinalStatus }
  /** We had closed it, but the gateway took the money: record it as SUCCESS and settle or refund. */
  | { kind: 'LATE_CAPTURE' }
  /** We had closed it and the gateway confirms nothing was taken: only the confirmation is recorded. */
  | { kind: 'CONFIRM_CLOSED' };

export function effectOfGatewayWord(attempt: AttemptState, word: GatewayFinalStatus): GatewayWordEffect {
  if (attempt.gatewayConfirmed) return { kind: 'REPLAY' };
  if (attempt.status === 'INITIATED') return { kind: 'COMPLETE', status: word };
  if (CAPTURED.includes(attempt.status)) return { kind: 'REPLAY' };
  return word === 'SUCCESS' ? { kind: 'LATE_CAPTURE' } : { kind: 'CONFIRM_CLOSED' };
}

/** Why a captured share cannot pay its order, or null when it pays it. */
function unpayableReason(line: SettlementLine, today: string): string | null {
  if (line.orderStatus !== 'PENDING') return `ORDER_${line.orderStatus}`;
  if (line.orderTotal !== line.charged) return 'ORDER_REPRICED';
  // The premium arrived after the cover began: paying would sell cover for a day already lived.
  if (line.coverageStartDate < today) return 'COVER_STARTED';
  return null;
}

/**
 * Why an attempt's checkout takes no payment any more, in a partner's words, or null while it
 * still can (INITIATED) or already took the money (SUCCESS, REFUND_PENDING, REFUNDED).
 */
export function attemptEndedBecause(attempt: {
  status: AttemptStatus;
  closedReason?: ClosedReason | null;
  supersededBy?: string | null;
}): string | null {
  if (attempt.status === 'FAILED') return 'declined by the gateway';
  if (attempt.status === 'EXPIRED') return 'the checkout was not completed in time';
  if (attempt.status !== 'CANCELLED') return null;
  switch (attempt.closedReason) {
    case 'SUPERSEDED':
      return attempt.supersededBy ? `superseded by payment ${attempt.supersededBy}` : 'superseded by a newer payment';
    case 'ORDER_PAID':
      return 'its order was paid by another payment';
    case 'ORDER_REPRICED':
      return "its order's total changed";
    case 'ORDER_CANCELLED':
      return 'its order was cancelled';
    case 'EXPIRED':
      return 'the checkout was not completed in time';
    default:
      return 'cancelled by the customer at the gateway';
  }
}

/** Whether the attempt is due for a server-side status lookup at `now`. */
export function needsReconciliation(
  attempt: AttemptState & { createdAt: Date; completedAt?: Date | null },
  now: Date,
  reconcileAfterSeconds: number,
  watchClosedSeconds: number,
): boolean {
  if (attempt.gatewayConfirmed) return false;
  if (attempt.status === 'INITIATED')
    return now.getTime() - attempt.createdAt.getTime() >= reconcileAfterSeconds * 1000;
  // Closed by us without the gateway's word: keep asking for a while, so a capture that raced the close is found.
  if (attempt.status === 'CANCELLED' || attempt.status === 'EXPIRED') {
    return !!attempt.completedAt && now.getTime() - attempt.completedAt.getTime() <= watchClosedSeconds * 1000;
  }
  return false;
}

export const isExpired = (attempt: { status: AttemptStatus; expiresAt: Date }, now: Date): boolean =>
  attempt.status === 'INITIATED' && attempt.expiresAt.getTime() <= now.getTime();

/** One order an attempt pays for, as the settlement sees it. */
export interface SettlementLine {
  orderId: string;
  orderStatus: string;
  orderTotal: number;
  /** The amount of this order the attempt charged, in minor units. */
  charged: number;
  /** The order's first day of cover (Nepal date): a share captured after that day cannot pay it. */
  coverageStartDate: string;
}

export interface SettlementPlan {
  /** Orders that become PAID. */
  pay: string[];
  /** Orders whose share was captured but cannot pay them (already paid, closed, or re-priced since): owed back. */
  refund: string[];
  refundAmount: number;
  refundReason?: string;
  /** SUCCESS when the capture paid at least one order, REFUND_PENDING when all of it is owed back. */
  attemptStatus: 'SUCCESS' | 'REFUND_PENDING';
}

/**
 * A captured payment settles each order it covers that is still PENDING at the charged price and
 * whose cover has not started before `today` (Nepal date of the capture's recording);
 * everything else it captured is owed back to the customer. Never a second PAID, never a lost
 * payment: each line either pays its order or lands in the refund amount.
 */
export function settlementPlan(lines: SettlementLine[], today: string): SettlementPlan {
  const pay: string[] = [];
  const refund: string[] = [];
  let refundAmount = 0;
  const reasons = new Set<string>();
  for (const line of lines) {
    const reason = unpayableReason(line, today);
    if (reason === null) {
      pay.push(line.orderId);
    } else {
      refund.push(line.orderId);
      refundAmount += line.charged;
      reasons.add(reason);
    }
  }
  return {
    pay,
    refund,
    refundAmount,
    refundReason: reasons.size > 0 ? [...reasons].sort().join(',') : undefined,
    attemptStatus: pay.length > 0 ? 'SUCCESS' : 'REFUND_PENDING',
  };
}

/**
 * The attempt's machine (decision record 0111): each step and the statuses it may leave from.
 * CAPTURE and CAPTURE_OWED are the gateway taking the money (paying at least one order, or none),
 * on time or late for an attempt we had closed; DECLINE, CANCEL and EXPIRE end an open attempt
 * (the gateway's word, or our close); REFUND is the last owed share's refund succeeding; REVERSE a
 * full reversal at the provider. An attempt is born INITIATED (payment-start.ts) or SUCCESS (cash).
 */
export type AttemptStep = 'CAPTURE' | 'CAPTURE_OWED' | 'DECLINE' | 'CANCEL' | 'EXPIRE' | 'REFUND' | 'REVERSE';

const CLOSED_UNHEARD: readonly AttemptStatus[] = ['CANCELLED', 'EXPIRED'];

const ATTEMPT_MOVES: Readonly<Record<AttemptStep, { from: readonly AttemptStatus[]; to: AttemptStatus }>> = {
  CAPTURE: { from: ['INITIATED', ...CLOSED_UNHEARD], to: 'SUCCESS' },
  CAPTURE_OWED: { from: ['INITIATED', ...CLOSED_UNHEARD], to: 'REFUND_PENDING' },
  DECLINE: { from: ['INITIATED'], to: 'FAILED' },
  CANCEL: { from: ['INITIATED'], to: 'CANCELLED' },
  EXPIRE: { from: ['INITIATED'], to: 'EXPIRED' },
  REFUND: { from: ['REFUND_PENDING'], to: 'REFUNDED' },
  REVERSE: { from: ['SUCCESS'], to: 'REFUNDED' },
};

/** The status a step leads an attempt to from `from`, or why it may not be taken. */
export function attemptStep(from: AttemptStatus, step: AttemptStep): { to: AttemptStatus } | { refused: string } {
  const move = ATTEMPT_MOVES[step];
  if (!move.from.includes(from))
    return { refused: `a ${from} attempt cannot take the step ${step} (only from ${move.from.join(' or ')})` };
  return { to: move.to };
}

/** The step that ends an open attempt with a gateway's final word other than a capture, or with our close. */
export function endingStep(status: Exclude<GatewayFinalStatus, 'SUCCESS'>): AttemptStep {
  return status === 'FAILED' ? 'DECLINE' : status === 'CANCELLED' ? 'CANCEL' : 'EXPIRE';
}

/**
 * A share's machine: unsettled (null) until its attempt is captured; PAY when the capture pays its
 * order, OWE when money of it is owed back (a capture that paid nothing, or a refund recorded for
 * it), REFUND when that refund succeeded, REVERSE when the provider gave the whole payment back.
 */
export type ShareStep = 'PAY' | 'OWE' | 'REFUND' | 'REVERSE';
export type ShareState = ShareSettlement | null;

const SHARE_MOVES: Readonly<Record<ShareStep, { from: readonly ShareState[]; to: ShareSettlement }>> = {
  PAY: { from: [null], to: 'PAID' },
  OWE: { from: [null, 'PAID', 'REFUND_PENDING'], to: 'REFUND_PENDING' },
  REFUND: { from: ['REFUND_PENDING'], to: 'REFUNDED' },
  REVERSE: { from: ['PAID', 'REFUND_PENDING', 'REFUNDED'], to: 'REFUNDED' },
};

/** The settlement a step leads a share to from `from`, or why it may not be taken. */
export function shareStep(from: ShareState, step: ShareStep): { to: ShareSettlement } | { refused: string } {
  const move = SHARE_MOVES[step];
  if (!move.from.includes(from))
    return {
      refused: `a ${from ?? 'unsettled'} share cannot take the step ${step} (only from ${move.from.map((state) => state ?? 'unsettled').join(' or ')})`,
    };
  return { to: move.to };
}
