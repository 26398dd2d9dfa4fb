/**
 * Payment references: `<orderRef>-<epochMillis>` for one order, `<groupRef>-<epochMillis>` for a
 * group. Only this module builds them; everywhere else a payment reference is an opaque lookup key
 * and is never parsed (spec/components/schemas/PaymentInit.yaml).
 */
export function paymentReference(ownerRef: string, epochMillis: number): string {
  if (!Number.isSafeInteger(epochMillis) || epochMillis <= 0)
    throw new Error(`Not an epoch millisecond: ${epochMillis}`);
  return `${ownerRef}-${epochMillis}`;
}

/**
 * The instant for a new reference: now, or one millisecond after the previous attempt of the same
 * order or group when two attempts fall into the same millisecond (or the clock stepped back),
 * so references stay unique and increase.
 */
export function nextReferenceMillis(now: number, previous: number | undefined): number {
  return previous !== undefined && previous >= now ? previous + 1 : now;
}
