import { timingSafeEqual } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { MetricsConfig } from './settings';
import type { Logger } from '../logging/logger';
import { listeningPort } from '../narrow';
import type { ErrorCode } from '../errors';

/** What a scrape reads: this process's registry, or in a cluster's primary the workers' aggregate. */
export interface MetricsSource {
  contentType: string;
  read(): Promise<string>;
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/** With METRICS_TOKEN set, only `Authorization: Bearer <token>` reads the metrics; compared in constant time. */
export function metricsAuthorised(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const presented = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * GET /metrics on its own port (METRICS_PORT, on METRICS_HOST), away from the partner-facing
 * listener: a load balancer forwards only the API port, and the scraper reaches this one on the
 * operator's network. Anything else on this port is a 404.
 */
export async function startMetricsListener(
  settings: MetricsConfig,
  port: number,
  source: MetricsSource,
  logger: Logger,
): Promise<MetricsListener> {
  const server: Server = http.createServer((req, res) => {
    const answer = (status: number, message: string, code: ErrorCode) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(
        JSON.stringify({
          status,
          error: http.STATUS_CODES[status],
          message,
          code,
          path: req.url,
          timestamp: new Date().toISOString(),
        }),
      );
    };
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics')
      return answer(404, 'Only GET /metrics is served on this port', 'NOT_FOUND');
    if (!metricsAuthorised(req.headers.authorization, settings.token))
      return answer(401, 'Missing or wrong metrics token', 'TOKEN_INVALID');
    source.read().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': source.contentType, 'Cache-Control': 'no-store' });
        res.end(body);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics scrape failed');
        answer(500, 'Internal server error', 'INTERNAL_ERROR');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, settings.host, () => resolve());
  });
  const bound = listeningPort(server);
  logger.info({ metricsPort: bound, host: settings.host }, 'metrics listening');
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
