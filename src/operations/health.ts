import type { OperationHandlers } from './operation';

export const healthHandlers: OperationHandlers = {
  async getHealth() {
    return { status: 200, body: { status: 'ok' } };
  },

  async getMetrics(_c, { services }) {
    const { registry } = services.metrics;
    return { status: 200, body: await registry.metrics(), contentType: registry.contentType };
  },

  async getReadiness(_c, { services }) {
    const up = await services.isDatabaseUp();
    return up
      ? { status: 200, body: { status: 'ready', database: 'up' } }
      : { status: 503, body: { status: 'unready', database: 'down' } };
  },
};
