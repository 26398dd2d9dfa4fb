import type { Command } from 'commander';
import { decimalStringFromMinor } from '../kernel/money';
import {
  parseOperatorAmount,
  orderOverview,
  type OrderOverview,
  bindingOfOrder,
  orderPrice,
  orderIdentity,
} from '../modules/orders';
import type { Order } from '../modules/orders/entities/order';
import { recordCashPayment } from '../modules/payments';
import { cancelFromCommandLine } from './operator-cancellation';
import {
  OPERATOR_NOTE_MAX_LENGTH,
  operatorActor,
  operatorCommand,
  output,
  showCommand,
  withDatabase,
  withPayments,
  type CliOptions,
} from './context';

export function registerOrderCommands(program: Command): void {
  const order = program.command('order').description('orders: inspect, cancel, record cash');

  showCommand(
    order,
    'show <order>',
    'show an order (ORD-… reference or ORDN-… number): status, totals, company, traveller, group, promo slots, payment attempts, audit entries',
    async (em, identifier) => overviewView(await orderOverview(em, identifier)),
    describeOverview,
  );

  operatorCommand(
    order,
    'cancel <order>',
    'cancel a PENDING order: asks the gateway about its open payment attempts (a paid one settles the order instead), closes them, gives back its promo code uses, writes an audit entry; with --note also a PAID order, even once its cover started, with a refund of its payment share by the cancellation rules',
    (command) =>
      command.option(
        '--note <text>',
        `why (kept with the cancellation; required to cancel a paid order, at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
      ),
  ).action(async (identifier: string, options: CliOptions & { note?: string }) => {
    const note = options.note?.trim() || undefined;
    if (note && note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be at most ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const cancelled = await withPayments((em, deps) =>
      cancelFromCommandLine(em, identifier, operatorActor(), deps, new Date(), note),
    );
    const result = {
      orderRef: cancelled.order.orderRef,
      status: cancelled.order.status,
      releasedPromoCodes: cancelled.releasedCodes,
      closedPaymentRefs: cancelled.closedPaymentRefs,
      totalAmount: decimalStringFromMinor(cancelled.order.totalAmount),
      currency: cancelled.order.currency,
      ...(cancelled.refund
        ? {
            refund: {
              refundRef: cancelled.refund.refundRef,
              amount: decimalStringFromMinor(cancelled.refund.amount),
              fee: decimalStringFromMinor(cancelled.refund.fee),
              status: cancelled.refund.status,
            },
          }
        : {}),
    };
    const lines = [
      `cancelled ${result.orderRef}`,
      result.refund
        ? `  refund ${result.refund.refundRef}: ${result.currency} ${result.refund.amount} (fee ${result.refund.fee}), ${result.refund.status}`
        : '',
      result.releasedPromoCodes.length ? `  promo codes released: ${result.releasedPromoCodes.join(', ')}` : '',
      result.closedPaymentRefs.length ? `  payment attempts closed: ${result.closedPaymentRefs.join(', ')}` : '',
    ].filter(Boolean);
    output(options, result, lines);
  });

  operatorCommand(
    order,
    'record-cash <order>',
    "record the cash a PENDING CASH order was paid with: the order becomes PAID; after its cover's first day (Nepal) only with --force and --note",
    (command) =>
      command
        .requiredOption('--amount <amount>', 'the cash received, exactly the order total, e.g. 4500.00')
        .option(
          '--note <text>',
          `receipt number or remark kept in the audit entry (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
        )
        .option(
          '--force',
          "record cash after the cover's first day (the cash was paid in time but reached the office later); needs --note",
        ),
  ).action(async (identifier: string, options: CliOptions & { amount: string; note?: string; force?: boolean }) => {
    const amount = parseOperatorAmount(options.amount);
    if (amount === null)
      throw new Error(
        `--amount must be a decimal amount with at most two decimals, like 4500.00 (got ${JSON.stringify(options.amount)})`,
      );
    const note = options.note?.trim() || undefined;
    if (note && note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be at most ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const recorded = await withDatabase((em) =>
      recordCashPayment(em, identifier, { amount, note, forced: options.force === true }, operatorActor()),
    );
    const result = {
      orderRef: recorded.order.orderRef,
      status: recorded.order.status,
      paidAt: recorded.order.paidAt?.toISOString() ?? null,
      paymentRef: recorded.attempt.paymentRef,
      amount: decimalStringFromMinor(recorded.attempt.amount),
      currency: recorded.attempt.currency,
      policyNumber: recorded.order.policyNumber ?? null,
    };
    output(
      options,
      result,
      `recorded ${result.currency} ${result.amount} cash for ${result.orderRef} (payment ${result.paymentRef}); order is ${result.status}, policy ${result.policyNumber}`,
    );
  });
}

function overviewView({ order, attempts, auditEntries }: OrderOverview) {
  const price = orderPrice(order);
  const money = decimalStringFromMinor;
  const binding = bindingOfOrder(order);
  return {
    ...orderIdentity(order),
    company: { id: order.company.id, name: order.company.name },
    // One traveller per order; a group is several orders, each with its own.
    travellers: [{ touristId: order.traveller.id, name: order.traveller.name, email: order.traveller.email }],
    groupRef: order.group?.groupRef ?? null,
    departureDate: order.departureDate,
    totals: {
      currency: order.currency,
      packagePrice: money(price.packagePrice),
      includedDevicesPrice: money(price.includedDevicesPrice),
      addedItemsPrice: money(price.addedItemsPrice),
      subtotal: money(price.subtotal),
      companyPromoDiscount: money(price.companyPromoDiscount),
      agentPromoDiscount: money(price.agentPromoDiscount),
      directDiscountAmount: money(price.directDiscountAmount),
      totalAmount: money(order.totalAmount),
    },
    promoSlots: {
      companyPromoCode: order.companyPromoCode?.code ?? null,
      agentPromoCode: order.agentPromoCode?.code ?? null,
      binding: { type: binding.type, ownerId: binding.ownerId, ownerName: binding.ownerName },
    },
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    paymentAttempts: attempts.map((attempt) => ({
      paymentRef: attempt.paymentRef,
      gateway: attempt.gateway,
      scope: attempt.scope,
      status: attempt.status,
      // What this order is charged in the attempt; a group attempt's amount covers its other orders too.
      amount: money(shareOf(attempt.orders.getItems(), order)?.amount ?? 0),
      settlement: shareOf(attempt.orders.getItems(), order)?.settlement ?? null,
      attemptAmount: money(attempt.amount),
      createdAt: attempt.createdAt.toISOString(),
      completedAt: attempt.completedAt?.toISOString() ?? null,
      closedReason: attempt.closedReason ?? null,
      refundAmount: money(attempt.refundAmount),
    })),
    auditEntries: auditEntries.map((entry) => ({
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      details: entry.details,
    })),
  };
}

function shareOf<Line extends { order: { id: string } }>(lines: Line[], order: Order): Line | undefined {
  return lines.find((line) => line.order.id === order.id);
}

type OverviewView = ReturnType<typeof overviewView>;

function describeOverview(view: OverviewView): string[] {
  const { totals } = view;
  const discounts = [
    totals.companyPromoDiscount !== '0.00' ? `company promo -${totals.companyPromoDiscount}` : '',
    totals.agentPromoDiscount !== '0.00' ? `agent promo -${totals.agentPromoDiscount}` : '',
    totals.directDiscountAmount !== '0.00' ? `direct -${totals.directDiscountAmount}` : '',
  ].filter(Boolean);
  return [
    `${view.orderRef} (${view.orderNumber})  ${view.status}  ${view.settlementType}  ${totals.currency} ${totals.totalAmount}`,
    `  company ${view.company.name} (${view.company.id})`,
    ...view.travellers.map((t) => `  traveller ${t.name} <${t.email}> (${t.touristId})`),
    view.groupRef ? `  group ${view.groupRef}` : '',
    `  subtotal ${totals.subtotal}${discounts.length ? `, ${discounts.join(', ')}` : ''}, total ${totals.totalAmount}`,
    `  promo: company ${view.promoSlots.companyPromoCode ?? '-'}, agent ${view.promoSlots.agentPromoCode ?? '-'}, binding ${view.promoSlots.binding.type}${view.promoSlots.binding.ownerName ? ` (${view.promoSlots.binding.ownerName})` : ''}`,
    `  created ${view.createdAt}${view.paidAt ? `, paid ${view.paidAt}` : ''}`,
    view.paymentAttempts.length === 0 ? '  no payment attempts' : '  payment attempts:',
    ...view.paymentAttempts.map(
      (a) =>
        `    ${a.paymentRef}  ${a.status}  ${a.gateway}  ${totals.currency} ${a.amount}${a.scope === 'GROUP' ? ` of ${a.attemptAmount}` : ''}${a.closedReason ? `  closed: ${a.closedReason}` : ''}${a.refundAmount !== '0.00' ? `  REFUND OWED ${a.refundAmount}` : ''}`,
    ),
    view.auditEntries.length === 0 ? '  no audit entries' : '  audit:',
    ...view.auditEntries.map((e) => `    ${e.at}  ${e.action}  by ${e.actor}  ${JSON.stringify(e.details)}`),
  ].filter(Boolean);
}
