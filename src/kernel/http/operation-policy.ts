import type { RateLimitConfig } from '../rate-limits/settings';
import type { OperationId } from './contract';

/** A counter one operation's requests count against, per company and window (kernel/rate-limits). */
export interface RateLimitRule {
  /** Operations that name the same counter share one count (a single and a group payment). */
  counter: string;
  /** The counter's limit per window, read from the settings; 0 turns it off. */
  limit(limits: RateLimitConfig): number;
  /** What a request adds (default 1); 0 only refuses when the counter is already spent (an upload's byte quota, counted once stored). */
  cost?: number;
}

/** A Prometheus counter of one operation's outcomes: an answer below 300 counts as `accepted`, a 400 as `rejected`. */
export interface OutcomeMetric {
  name: string;
  help: string;
}

/**
 * What the kernel does around one operation's handler, declared by the module beside its handlers
 * and applied the same way for every operation: rate limits before the handler, an outcome
 * counter after the answer, and how a request the contract refuses is answered.
 */
export interface OperationPolicy {
  rateLimits?: readonly RateLimitRule[];
  outcomes?: OutcomeMetric;
  /** The answer to a malformed request (schema violation or unstorable input) instead of its field errors. */
  malformedRequest?: () => Error;
}

/** Policies keyed by the generated operation ids: a misspelt or renamed id is a compile error where they are declared. */
export type OperationPolicies = { readonly [Id in OperationId]?: OperationPolicy };

/** Every outcome counter the policies declare, once each (the metrics registry creates them at start). */
export function outcomeMetricsOf(policies: OperationPolicies): OutcomeMetric[] {
  const byName = new Map<string, OutcomeMetric>();
  for (const policy of Object.values<OperationPolicy | undefined>(policies))
    if (policy?.outcomes) byName.set(policy.outcomes.name, policy.outcomes);
  return [...byName.values()];
}
