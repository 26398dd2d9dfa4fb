import { successBody } from '../../kernel/http/envelope';
import { createOrder, createOrderGroup } from './order-creation';
import { resolveOrder } from './order-lookup';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { orderGroupWire, orderWire } from './order-wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { springPage } from '../../kernel/http/pagination';
import { kathmanduToday } from '../../kernel/business-date';
import { exportOrderBook, listOrderBook } from './order-book';
import { ORDER_BOOK_CSV_COLUMNS, orderBookCells, orderSummaryWire } from './order-book-wire';

/** The CSV export is the same request asked for as `text/csv` (DESIGN "The order book"). */
const wantsCsv = (accept: string | undefined) => accept !== undefined && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);

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

  async listOrders({ query, headers }, scope) {
    if (wantsCsv(headers.accept)) {
      const stream = await exportOrderBook(scope.em, callerOf(scope), query, orderBookCells, ORDER_BOOK_CSV_COLUMNS);
      const disposition = `attachment; filename="orders-${kathmanduToday()}.csv"`;
      return { status: 200, contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': disposition }, stream };
    }
    const { rows, request, total } = await listOrderBook(scope.em, callerOf(scope), query);
    return { status: 200, body: successBody(springPage(rows.map(orderSummaryWire), request, total), 'Orders retrieved') };
  },
} satisfies TagHandlers;

/** Order creation (a group of up to 50 is one request), counted per company. */
export const orderPolicies = {
  createOrders: { rateLimits: [{ counter: 'order', limit: (limits) => limits.orderPerCompany }] },
} satisfies OperationPolicies;
