import type { Minor } from '../../../kernel/money';

/** A refund of part or all of the share an earned line was earned on. */
export interface RefundOfShare {
  /** What the line earned when the share was paid. */
  earned: Minor;
  /** The paid share (not the base: the refund is a part of what the customer paid). */
  share: Minor;
  /** What earlier refunds of this share already gave back. */
  refundedBefore: Minor;
  /** What this refund gives back. */
  refunded: Minor;
}

/**
 * The (negative) amount a refund takes back of an earned line: the line keeps what it would earn
 * on the part of the share still paid, rounded down. Measured from what was left before the
 * refund, so that any run of partial refunds lands exactly where one refund of their sum would,
 * and a full refund takes everything back.
 */
export function reversedAmount({ earned, share, refundedBefore, refunded }: RefundOfShare): Minor {
  if (share <= 0 || refunded <= 0) return 0;
  const keptBefore = keptOf(earned, share, refundedBefore);
  const keptAfter = keptOf(earned, share, refundedBefore + refunded);
  const taken = keptBefore - keptAfter;
  return taken === 0 ? 0 : -taken;
}

/** What an earned line keeps once `refunded` of its share went back. */
export function keptOf(earned: Minor, share: Minor, refunded: Minor): Minor {
  const stillPaid = Math.max(0, share - refunded);
  return Number((BigInt(earned) * BigInt(stillPaid)) / BigInt(share));
}
