import { successBody } from '../../kernel/http/envelope';
import { createOrder, createOrderGroup } from './order-creation';
import { changeDeparture } from './departure-change';
import { previewExtension, topUpAmountOf, type ExtensionQuote } from './extension';
import { previewGroupExtension } from './group-extension';
import type { Order } from './entities/order';
import { extensionAsk } from './rules/extension';
import { resolveOrder } from './order-lookup';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { createKeyHeader, idempotentCreate, replayedHeaders } from '../../kernel/http/idempotent-create';
import { orderGroupWire, orderWire } from './order-wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { amountFromMinor } from '../../kernel/money';
import { cancelByPartner, type CancellationView } from './order-cancellation';
import { cancellationOf, previewCancellation } from './cancellation-reads';
import { refundWire } from '../refunds';
import type { Schemas } from '../../kernel/http/wire';
import { springPage } from '../../kernel/http/pagination';
import { kathmanduToday } from '../../kernel/business-date';
import { exportOrderBook, listOrderBook } from './order-book';
import { ORDER_BOOK_CSV_COLUMNS, orderBookCells, orderSummaryWire } from './order-book-wire';
import { commissionLineWire, commissionLinesOfOrder } from '../commissions';
import { wantsCsv } from '../../kernel/csv';

export const orderHandlers = {
  /** The body's shape decides: an object is one order, an array (even of one) is a group. */
  async createOrders({ body, headers }, scope) {
    const settings = { currency: scope.services.config.currency, applyPromo: scope.services.promoAtOrderCreation };
    const caller = callerOf(scope);
    return idempotentCreate(
      scope.em,
      { companyId: caller.companyId, operation: 'createOrders', key: createKeyHeader(headers), request: body },
      async (em) => {
        if (Array.isArray(body)) {
          const created = await createOrderGroup(em, caller, body, settings);
          scope.services.metrics.ordersCreated.inc({ kind: 'group' }, created.orders.length);
          return {
            status: 201 as const,
            body: successBody(orderGroupWire(created.group, created.orders), 'Order group created'),
          };
        }
        const created = await createOrder(em, caller, body, settings);
        scope.services.metrics.ordersCreated.inc({ kind: 'single' });
        return {
          status: 201 as const,
          body: successBody(orderWire(created.order, created.promoApplyResult), 'Order created'),
        };
      },
    );
  },

  async getOrder({ params }, scope) {
    const caller = callerOf(scope);
    const { order } = await resolveOrder(scope.em, caller, params.orderRef, { intent: 'READ' });
    const commissionLines = (await commissionLinesOfOrder(scope.em, caller.companyId, order)).map(commissionLineWire);
    return {
      status: 200,
      body: successBody({
        ...orderWire(order, undefined, await cancellationOf(scope.em, order), await topUpAmountOf(scope.em, order)),
        commissionLines,
      }),
    };
  },

  async previewOrderCancellation({ params }, scope) {
    const preview = await previewCancellation(
      scope.em,
      callerOf(scope),
      params.orderRef,
      scope.services.cancellationPayments.settings,
    );
    return {
      status: 200,
      body: successBody(
        {
          orderRef: preview.orderRef,
          cancellable: preview.cancellable,
          notCancellableReason: preview.notCancellableReason,
          rule: preview.rule,
          refundAmount: amountFromMinor(preview.refundAmount),
          cancellationFee: amountFromMinor(preview.cancellationFee),
          feeBase: amountFromMinor(preview.feeBase),
          currency: preview.currency,
        },
        'Cancellation preview',
      ),
    };
  },

  async previewOrderExtension({ params, body }, scope) {
    const quote = await previewExtension(scope.em, callerOf(scope), params.orderRef, extensionAsk(body));
    return { status: 200, body: successBody(extensionPreviewWire(quote), 'Extension previewed') };
  },

  async previewGroupExtension({ params, body }, scope) {
    const quote = await previewGroupExtension(scope.em, callerOf(scope), params.groupRef, extensionAsk(body));
    return {
      status: 200,
      body: successBody(
        {
          groupRef: quote.group.groupRef,
          previousCoverageEndDate: quote.previousCoverageEndDate,
          coverageEndDate: quote.coverageEndDate,
          amountDue: amountFromMinor(quote.amountDue),
          currency: quote.members[0]?.order.currency ?? 'NPR',
          allowed: quote.refusalNow === null,
          refusal: quote.refusalNow,
          members: quote.members.map(extensionPreviewWire),
          skipped: quote.skipped.map(skippedMemberWire),
        },
        'Group extension previewed',
      ),
    };
  },

  async cancelOrder({ params, body, headers }, scope) {
    const key = String(headers['idempotency-key']);
    const view = await cancelByPartner(scope.em, callerOf(scope), params.orderRef, body, key, {
      payments: scope.services.cancellationPayments,
      releasePromoSlots: scope.services.promoSlotRelease,
    });
    if (!view.replayed) {
      scope.services.metrics.orderCancellations.inc({ outcome: view.refund ? 'refund' : 'no_money' });
    }
    const message = view.paidWhileCancelling
      ? 'The customer paid the open checkout before it could be closed: the order was paid, then cancelled with a refund'
      : 'Order cancelled';
    return { status: 200, ...replayedHeaders(view.replayed), body: successBody(cancellationResultWire(view), message) };
  },

  /** Only `departureDate` can change (decision record 0060); the schema refuses any other field. */
  async updateOrder({ params, body }, scope) {
    const caller = callerOf(scope);
    const { order, changed } = await changeDeparture(
      scope.em,
      caller,
      params.orderRef,
      body.departureDate,
      scope.services.config.orders,
    );
    // The detail as GET gives it: the caller's commission lines included.
    const commissionLines = (await commissionLinesOfOrder(scope.em, caller.companyId, order)).map(commissionLineWire);
    return {
      status: 200,
      body: successBody(
        { ...orderWire(order, undefined, null, await topUpAmountOf(scope.em, order)), commissionLines },
        changed ? 'Departure date changed' : "Departure date unchanged: it is the order's current date",
      ),
    };
  },

  async listOrders({ query, headers }, scope) {
    if (wantsCsv(headers.accept)) {
      const stream = await exportOrderBook(
        scope.services.csvExports,
        callerOf(scope),
        query,
        orderBookCells,
        ORDER_BOOK_CSV_COLUMNS,
      );
      const disposition = `attachment; filename="orders-${kathmanduToday()}.csv"`;
      return {
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': disposition },
        stream,
      };
    }
    const { rows, request, total } = await listOrderBook(scope.em, callerOf(scope), query);
    return {
      status: 200,
      body: successBody(springPage(rows.map(orderSummaryWire), request, total), 'Orders retrieved'),
    };
  },
} satisfies TagHandlers;

function cancellationResultWire({
  order,
  cancellation,
  refund,
  topUpRefunds,
}: CancellationView): Schemas['OrderCancellationResult'] {
  return {
    orderRef: order.orderRef,
    orderStatus: 'CANCELLED',
    cancelledAt: cancellation.cancelledAt.toISOString(),
    // Only partners' reasons reach this answer: the request's own, or its replay's.
    reason:
      cancellation.reason === 'OPERATOR' || cancellation.reason === 'PAYMENT_REVERSED' ? 'OTHER' : cancellation.reason,
    refund: refund ? refundWire(refund) : null,
    topUpRefunds: topUpRefunds.map(refundWire),
  };
}

/** One order's extension as its preview answers it (a group's preview answers one per member). */
function extensionPreviewWire(quote: ExtensionQuote): Schemas['ExtensionPreview'] {
  return {
    orderRef: quote.order.orderRef,
    coverageStartDate: quote.order.coverageStartDate,
    coverageEndDate: quote.coverageEndDate,
    previousCoverageEndDate: quote.order.coverageEndDate,
    durationDays: quote.durationDays,
    maxDurationDays: quote.maxDurationDays,
    newPremium: amountFromMinor(quote.newPremium),
    premiumPaid: amountFromMinor(quote.premiumPaid),
    amountDue: amountFromMinor(quote.amountDue),
    currency: quote.order.currency,
    allowed: quote.refusalNow === null,
    refusal: quote.refusalNow,
  };
}

/** A cancelled member a group's extension leaves out (decision record 0108). */
export function skippedMemberWire(order: Pick<Order, 'orderRef' | 'status'>): Schemas['GroupExtensionSkipped'] {
  return { orderRef: order.orderRef, status: order.status, reason: 'ORDER_CANCELLED' };
}

/** Order creation (a group of up to 50 is one request) and date changes, counted per company against one limit. */
export const orderPolicies = {
  createOrders: { rateLimits: [{ counter: 'order', limit: (limits) => limits.orderPerCompany }] },
  previewOrderExtension: { rateLimits: [{ counter: 'pay', limit: (limits) => limits.payPerCompany }] },
  previewGroupExtension: { rateLimits: [{ counter: 'pay', limit: (limits) => limits.payPerCompany }] },
  updateOrder: {
    rateLimits: [{ counter: 'order', limit: (limits) => limits.orderPerCompany }],
    outcomes: {
      name: 'order_departure_changes_total',
      help: 'Date changes (PATCH /orders/{orderRef}) by operationId and outcome (accepted or rejected)',
    },
  },
} satisfies OperationPolicies;
