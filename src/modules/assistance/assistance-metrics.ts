import { Histogram } from 'prom-client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { registerReadGauge, type Metrics } from '../../kernel/metrics/metrics';
import { OPEN_STATUSES } from './rules/case-status';

/** From minutes to a day: the desk is meant to review within minutes, and a case left a day is a failure to see. */
const REVIEW_BUCKETS = [60, 300, 600, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400];

/**
 * The desk's measured response in /metrics, read from the database at each scrape: the desk
 * works from the operator CLI, another process, so no server process sees the reviews happen.
 * Every process reads the same rows, so a cluster's aggregate takes the largest reading.
 * - `assistance_case_seconds_to_review`: RECEIVED to UNDER_REVIEW, per reviewed case;
 * - `assistance_cases_open`: open cases by status.
 */
export function registerAssistanceMetrics(metrics: Pick<Metrics, 'registry'>, newEm: () => EntityManager): void {
  new Histogram({
    name: 'assistance_case_seconds_to_review',
    help: 'Seconds from an assistance case being opened (RECEIVED) to the desk taking it up (UNDER_REVIEW), per reviewed case',
    buckets: REVIEW_BUCKETS,
    registers: [metrics.registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const rows = await newEm()
        .execute<Array<{ seconds: string }>>(
          `select extract(epoch from "reviewed_at" - "opened_at")::text as seconds from "assistance_case" where "reviewed_at" is not null`,
        )
        .catch(() => []);
      for (const row of rows) this.observe(Number(row.seconds));
    },
  });
  registerReadGauge(
    metrics,
    'assistance_cases_open',
    'Open assistance cases by status (RECEIVED, UNDER_REVIEW, AUTHORISED, COMPLETED)',
    ['status'],
    async () => {
      const rows = await newEm().execute<Array<{ status: string; count: string }>>(
        `select "status", count(*)::text as count from "assistance_case" where "status" in (${OPEN_STATUSES.map(() => '?').join(', ')}) group by "status"`,
        [...OPEN_STATUSES],
      );
      const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
      return OPEN_STATUSES.map((status) => ({ labels: { status }, value: counts.get(status) ?? 0 }));
    },
  );
}
