import { Histogram } from 'prom-client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { registerReadGauge, type Metrics } from '../../kernel/metrics/metrics';
import { APPROVAL_COUNTS } from './rules/claim-life';

/** From a minute (the sandbox desk) to two months: the desk assesses in days, and a claim left a month is a failure to see. */
const DECISION_BUCKETS = [60, 3600, 14_400, 43_200, 86_400, 172_800, 259_200, 604_800, 1_209_600, 2_592_000, 5_184_000];

/**
 * The claims desk in /metrics, read from the database at each scrape: the desk moves claims from
 * the operator CLI, another process, so no server process sees them move (as for assistance
 * cases, decision record 0073). Every process reads the same rows, so a cluster's aggregate takes
 * the largest reading.
 * - `claims`: claims by status and type;
 * - `claim_seconds_to_decision`: filing to the desk's decision (approved, partially approved or
 *   declined), per decided claim;
 * - `claims_approved_npr`: NPR approved on claims decided for payment (approved, paid, closed), by type.
 */
export function registerClaimMetrics(metrics: Pick<Metrics, 'registry'>, newEm: () => EntityManager): void {
  registerReadGauge(metrics, 'claims', 'Claims by status and claim type', ['status', 'claim_type'], async () => {
    const rows = await newEm().execute<Array<{ status: string; claim_type: string; count: string }>>(
      `select "status", "claim_type", count(*)::text as count from "claim" group by "status", "claim_type"`,
    );
    return rows.map((row) => ({
      labels: { status: row.status, claim_type: row.claim_type },
      value: Number(row.count),
    }));
  });
  new Histogram({
    name: 'claim_seconds_to_decision',
    help: "Seconds from a claim being filed to the desk's decision (APPROVED, PARTIALLY_APPROVED or DECLINED), per decided claim",
    buckets: DECISION_BUCKETS,
    registers: [metrics.registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const rows = await newEm()
        .execute<Array<{ seconds: string }>>(
          `select extract(epoch from "decided_at" - "filed_at")::text as seconds from "claim" where "decided_at" is not null`,
        )
        .catch(() => []);
      for (const row of rows) this.observe(Number(row.seconds));
    },
  });
  registerReadGauge(
    metrics,
    'claims_approved_npr',
    'NPR approved on claims decided for payment (APPROVED, PARTIALLY_APPROVED, PAID, CLOSED), by claim type',
    ['claim_type'],
    async () => {
      const rows = await newEm().execute<Array<{ claim_type: string; approved: string }>>(
        `select "claim_type", sum("approved_total")::text as approved from "claim"
          where "status" in (${APPROVAL_COUNTS.map(() => '?').join(', ')}) and "approved_total" is not null group by "claim_type"`,
        [...APPROVAL_COUNTS],
      );
      return rows.map((row) => ({ labels: { claim_type: row.claim_type }, value: Number(row.approved) }));
    },
  );
}
