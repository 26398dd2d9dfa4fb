import { z } from 'zod';
import { anyText, integer, readEnv, secret, type EnvReading } from '../settings/env-schema';

/** Who may read GET /metrics, and where; see docs/decisions/0040-beyond-one-machine-s3-documents-fleet-metrics-write-quotas.md, "Metrics of a fleet". */
export interface MetricsConfig {
  /** A listener for /metrics alone, away from the partner-facing one; the API then answers /metrics 404. */
  port?: number;
  /** Address of that listener: loopback unless METRICS_TOKEN protects it. */
  host: string;
  /** When set, every /metrics request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Whether the partner-facing listener answers GET /metrics (not with METRICS_PORT; in production only with a token). */
  onApiListener: boolean;
}

const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

const metricsEnv = z.object({
  METRICS_PORT: integer(0, 65535).optional(),
  METRICS_HOST: anyText().default('127.0.0.1'),
  METRICS_TOKEN: secret(16).optional(),
});

/**
 * Metrics name every operation, its traffic and the payment outcomes: nothing a stranger should
 * read. Off the loopback interface a token is required, and in production the partner-facing
 * listener serves them only with one.
 */
export function metricsConfig(reading: EnvReading, isProduction: boolean): MetricsConfig {
  const { METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = readEnv(metricsEnv, reading);
  // Asks for a token to be set: one set too short is already named, and is not asked for again.
  if (port !== undefined && !LOOPBACK_HOSTS.includes(host) && token === undefined && !reading.env.METRICS_TOKEN) {
    reading.problems.push(
      `METRICS_HOST=${host} is not loopback: set METRICS_TOKEN too, or keep METRICS_HOST=127.0.0.1`,
    );
  }
  return { port, host, token, onApiListener: port === undefined && (!isProduction || token !== undefined) };
}
