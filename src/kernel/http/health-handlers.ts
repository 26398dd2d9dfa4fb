import { notFound, unauthenticated } from '../errors';
import { metricsAuthorised } from '../metrics/metrics-listener';
import type { TagHandlers } from './request-scope';

export const healthHandlers = {
  async getHealth() {
    return { status: 200, body: { status: 'ok' } };
  },

  async getMetrics(_c, { services, req }) {
    const settings = services.metricsExposure;
    // Served on METRICS_PORT instead, or withheld in production without a token: as if it were not here.
    if (!settings.onApiListener) throw notFound('No endpoint GET /metrics');
    if (!metricsAuthorised(req.headers.authorization, settings.token))
      throw unauthenticated('Missing or wrong metrics token');
    const { registry } = services.metrics;
    return { status: 200, body: await registry.metrics(), contentType: registry.contentType };
  },

  async getReadiness(_c, { services }) {
    const up = await services.isDatabaseUp();
    return up
      ? { status: 200, body: { status: 'ready', database: 'up' } }
      : { status: 503, body: { status: 'unready', database: 'down' } };
  },
} satisfies TagHandlers;
