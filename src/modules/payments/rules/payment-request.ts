import { createHash } from 'node:crypto';

/** What a pay request asked for, after the target was resolved to its id. */
/** `Gateway` narrows it where only an online gateway can be meant (cash is recorded by the operator). */
export interface PayRequestFacts<Gateway extends string = string> {
  target: { kind: 'ORDER' | 'GROUP' | 'EXTENSION' | 'GROUP_EXTENSION'; id: string };
  gateway: Gateway;
  returnUrl?: string;
  customerMobile?: string;
}

/**
 * The fingerprint an Idempotency-Key is bound to: the same key may only ever mean the same
 * target and body. The target is the resolved id, so retrying by order number instead of order
 * reference is still the same request.
 */
export function payRequestFingerprint(facts: PayRequestFacts): string {
  // The mobile is appended only when given, so the keys of requests made before it existed keep their fingerprints.
  const canonical = JSON.stringify([
    facts.target.kind,
    facts.target.id,
    facts.gateway,
    facts.returnUrl ?? null,
    ...(facts.customerMobile === undefined ? [] : [facts.customerMobile]),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
