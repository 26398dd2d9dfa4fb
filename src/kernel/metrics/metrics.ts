import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { OutcomeMetric } from '../http/operation-policy';
import { stringField } from '../narrow';

/** What `GET /metrics` reads the connection pool through; the ORM's pool (tarn) has these. */
export interface PoolUsage {
  used(): number;
  free(): number;
  pending(): number;
  max: number;
}

/**
 * The service's Prometheus metrics, one registry per app (tests run several apps in one process,
 * so nothing is registered globally).
 */
export interface Metrics {
  registry: Registry;
  /** Payments increment this when an attempt reaches a final state: `paymentOutcomes.inc({ gateway, outcome })`. */
  paymentOutcomes: Counter<'gateway' | 'outcome'>;
  /** Captured money that paid no order (a late capture on a closed attempt): each one is a refund an operator owes. */
  lateCaptures: Counter<'gateway'>;
  rateLimited: Counter<'operation'>;
  /** Orders placed through POST /orders, by `kind` (single, or group for each order of a group). */
  ordersCreated: Counter<'kind'>;
  /** Payment attempts started (or replayed under the same Idempotency-Key), by gateway. */
  paymentStarts: Counter<'gateway'>;
  /** Refunds reaching a status (PENDING or MANUAL when recorded, then SUCCEEDED, FAILED or MANUAL), by gateway. */
  refunds: Counter<'gateway' | 'status'>;
  /** Orders cancelled through the API, by outcome: with a refund, or with no money moved. */
  orderCancellations: Counter<'outcome'>;
  /** The outcome counters operation policies declare (promo_operations_total ...), by name. */
  outcomes: ReadonlyMap<string, Counter<'operation' | 'outcome'>>;
  requests: Counter<'operation' | 'method' | 'status'>;
  requestDuration: Histogram<'operation' | 'method' | 'status'>;
}

// Requests outside the spec (unknown paths) share one label so a scanner cannot blow up cardinality.
const UNMATCHED = 'unmatched';

/** The database pool's state, read at each scrape. */
function registerPoolGauges(registry: Registry, pool: PoolUsage): void {
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge('db_pool_connections_used', 'Database connections checked out of the pool', () => pool.used());
  poolGauge('db_pool_connections_idle', 'Open database connections waiting in the pool', () => pool.free());
  poolGauge('db_pool_acquire_pending', 'Requests waiting for a database connection', () => pool.pending());
  poolGauge('db_pool_connections_max', 'Pool size limit (DB_POOL_MAX)', () => pool.max);
}

/** One sample of a gauge read at scrape time. */
export interface GaugeSample<Label extends string> {
  labels: Record<Label, string>;
  value: number;
}

/**
 * A gauge whose samples are read at each scrape (from the database: every process reads the same
 * rows, so a cluster's aggregate takes the largest reading, never the sum). A failed read leaves
 * the gauge empty for that scrape rather than failing the scrape.
 */
export function registerReadGauge<Label extends string>(
  metrics: Pick<Metrics, 'registry'>,
  name: string,
  help: string,
  labelNames: readonly Label[],
  read: () => Promise<GaugeSample<Label>[]>,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metrics.registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const samples = await read().catch(() => []);
      for (const sample of samples) this.set(sample.labels, sample.value);
    },
  });
}

export function createMetrics(pool: PoolUsage, outcomeMetrics: readonly OutcomeMetric[] = []): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const requests = counter('http_requests_total', 'HTTP requests answered, by operationId and status', [
    'operation',
    'method',
    'status',
  ]);
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the response finishing, by operationId and status',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const paymentOutcomes = counter(
    'payment_outcomes_total',
    'Payment attempts that reached a final state, by gateway and outcome',
    ['gateway', 'outcome'],
  );
  const lateCaptures = counter(
    'payment_refunds_owed_total',
    'Captures (or parts of group captures) that paid no order and are owed back to the customer, by gateway',
    ['gateway'],
  );
  const rateLimited = counter(
    'rate_limited_requests_total',
    'Requests answered 429 by the rate limiter, by operationId',
    ['operation'],
  );
  const ordersCreated = counter(
    'orders_created_total',
    'Orders created through POST /orders, by kind (single, or each order of a group)',
    ['kind'],
  );
  const paymentStarts = counter(
    'payment_starts_total',
    'Payment attempts started (or replayed under the same Idempotency-Key), by gateway',
    ['gateway'],
  );
  const refunds = counter(
    'refunds_total',
    'Refunds reaching a status (PENDING or MANUAL when recorded; SUCCEEDED, FAILED, MANUAL when executed or confirmed), by gateway',
    ['gateway', 'status'],
  );
  const orderCancellations = counter(
    'order_cancellations_total',
    'Orders cancelled through the API, by outcome (refund, no_money)',
    ['outcome'],
  );
  const outcomes = new Map(
    outcomeMetrics.map(({ name, help }) => [name, counter(name, help, ['operation', 'outcome'])]),
  );
  registerPoolGauges(registry, pool);
  return {
    registry,
    paymentOutcomes,
    lateCaptures,
    rateLimited,
    ordersCreated,
    paymentStarts,
    refunds,
    orderCancellations,
    outcomes,
    requests,
    requestDuration,
  };
}

/**
 * Counts and times every response under the operationId the handler recorded in res.locals, and
 * counts the outcome of an operation whose policy names an outcome counter.
 */
export function requestMetrics(
  metrics: Metrics,
  outcomeOf: (operationId: string) => OutcomeMetric | undefined = () => undefined,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stopTimer = metrics.requestDuration.startTimer();
    res.on('finish', () => {
      // Spec operations carry their operationId; the few plain express routes (/docs) their route path.
      const operation = stringField(res.locals, 'operationId') ?? stringField(req.route, 'path') ?? UNMATCHED;
      const labels = { operation, method: req.method, status: String(res.statusCode) };
      metrics.requests.inc(labels);
      stopTimer(labels);
      const outcomes = outcomeOf(operation);
      if (outcomes && (res.statusCode < 300 || res.statusCode === 400)) {
        metrics.outcomes
          .get(outcomes.name)
          ?.inc({ operation, outcome: res.statusCode < 300 ? 'accepted' : 'rejected' });
      }
    });
    next();
  };
}
