import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import type { OperationError } from './operation-result';

type Schemas = components['schemas'];
const ORDERS = '/api/external/v1/orders';

/**
 * `POST /orders` answers one order for an object body and a group for an array body; the contract
 * types the answer as either. This tells them apart without a cast.
 */
export function isOrderGroup(created: Schemas['Order'] | Schemas['OrderGroup']): created is Schemas['OrderGroup'] {
  return 'groupRef' in created && 'orders' in created && Array.isArray(created.orders);
}

/** The answer of createOrder / createOrderGroup: `data` typed for what was asked (one order, or a group). */
export interface CreatedResult<Created> {
  data: (Omit<Schemas['SuccessEnvelope'], 'data'> & { data: Created }) | undefined;
  error: OperationError<'createOrders'> | undefined;
  response: Response;
}

/**
 * POST /orders for one order (object body) and for a group (array body), each with an
 * Idempotency-Key that every retry of the call sends again, so a retry after a timeout answers the
 * first answer instead of creating a second order.
 */
export function orderCreation(api: Client<paths>) {
  const post = (body: Schemas['OrderInput'] | Schemas['OrderInput'][], idempotencyKey: string) =>
    api.POST(ORDERS, { body, params: { header: { 'Idempotency-Key': idempotencyKey } } });
  return {
    async createOrder(body: Schemas['OrderInput'], idempotencyKey: string): Promise<CreatedResult<Schemas['Order']>> {
      const { data, error, response } = await post(body, idempotencyKey);
      const created = data?.data;
      if (created === undefined || data === undefined || isOrderGroup(created))
        return { data: undefined, error, response };
      return { data: { ...data, data: created }, error, response };
    },
    async createOrderGroup(
      body: Schemas['OrderInput'][],
      idempotencyKey: string,
    ): Promise<CreatedResult<Schemas['OrderGroup']>> {
      const { data, error, response } = await post(body, idempotencyKey);
      const created = data?.data;
      if (created === undefined || data === undefined || !isOrderGroup(created))
        return { data: undefined, error, response };
      return { data: { ...data, data: created }, error, response };
    },
  };
}
