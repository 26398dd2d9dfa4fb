import { successBody } from '../../kernel/http/envelope';
import { createOrder, createOrderGroup } from './order-creation';
import { changeDeparture } from './departure-change';
import { resolveOrder } from './order-lookup';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { orderGroupWire, orderWire } from './order-wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';

export const orderHandlers = {
  /** The body's shape decides: an object is one order, an array (even of one) is a group. */
  async createOrders({ body }, scope) {
    const settings = { currency: scope.services.config.currency, applyPromo: scope.services.promoAtOrderCreation };
    if (Array.isArray(body)) {
      const created = await createOrderGroup(scope.em, callerOf(scope), body, settings);
      scope.services.metrics.ordersCreated.inc({ kind: 'group' }, created.orders.length);
      return { status: 201, body: successBody(orderGroupWire(created.group, created.orders), 'Order group created') };
    }
    const created = await createOrder(scope.em, callerOf(scope), body, settings);
    scope.services.metrics.ordersCreated.inc({ kind: 'single' });
    return { status: 201, body: successBody(orderWire(created.order, created.promoApplyResult), 'Order created') };
  },

  async getOrder({ params }, scope) {
    const { order } = await resolveOrder(scope.em, callerOf(scope), params.orderIdentifier, { intent: 'READ' });
    return { status: 200, body: successBody(orderWire(order)) };
  },

  /** Only `departureDate` can change (DESIGN "Date changes"); the schema refuses any other field. */
  async updateOrder({ params, body }, scope) {
    const { order, changed } = await changeDeparture(scope.em, callerOf(scope), params.orderIdentifier, body.departureDate);
    return { status: 200, body: successBody(orderWire(order), changed ? 'Departure date changed' : 'Departure date unchanged: it is the order\'s current date') };
  },
} satisfies TagHandlers;

/** Order creation (a group of up to 50 is one request) and date changes, counted per company against one limit. */
export const orderPolicies = {
  createOrders: { rateLimits: [{ counter: 'order', limit: (limits) => limits.orderPerCompany }] },
  updateOrder: {
    rateLimits: [{ counter: 'order', limit: (limits) => limits.orderPerCompany }],
    outcomes: { name: 'order_departure_changes_total', help: 'Date changes (PATCH /orders/{orderIdentifier}) by operationId and outcome (accepted or rejected)' },
  },
} satisfies OperationPolicies;
