import type { Command } from 'commander';
import { decimalStringFromMinor } from '../kernel/money';
import {
  paymentOverview,
  paymentsOwingRefunds,
  refundWrites,
  watchDueAttempts,
  type PaymentOverview,
} from '../modules/payments';
import { confirmRefundsOfPayment, recordPartialReversal } from '../modules/refunds';
import { parseOperatorAmount } from '../modules/orders';
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

export function registerPaymentCommands(program: Command): void {
  const payment = program.command('payment').description('payment attempts');

  showCommand(
    payment,
    'show <paymentRef>',
    'show a payment attempt: status, orders, gateway word, refund owed',
    async (em, paymentRef) => paymentView(await paymentOverview(em, paymentRef)),
    describePayment,
  );

  registerRefundCommands(payment);
  registerPartialReversalCommand(payment);
  registerReconcileCommand(payment);
}

function registerRefundCommands(payment: Command): void {
  operatorCommand(
    payment,
    'refunds',
    'list the payments that owe money back to a customer (captured after their checkout was closed)',
  ).action(async (options: CliOptions) => {
    const owed = await withDatabase(async (em) =>
      (await paymentsOwingRefunds(em)).map((attempt) => ({
        paymentRef: attempt.paymentRef,
        company: attempt.company.name,
        gateway: attempt.gateway,
        gatewayTransactionId: attempt.gatewayTransactionId ?? null,
        refundAmount: decimalStringFromMinor(attempt.refundAmount),
        currency: attempt.currency,
        refundReason: attempt.refundReason ?? null,
        capturedAt: attempt.completedAt?.toISOString() ?? null,
        orders: attempt.orders
          .getItems()
          .filter((line) => line.settlement === 'REFUND_PENDING')
          .map((line) => line.order.orderRef),
      })),
    );
    const lines = owed.map(
      (r) =>
        `${r.paymentRef}  ${r.currency} ${r.refundAmount}  ${r.gateway} ${r.gatewayTransactionId ?? ''}  ${r.refundReason ?? ''}  orders ${r.orders.join(', ')}  (${r.company})`,
    );
    output(options, owed, owed.length === 0 ? 'no refund owed' : [`${owed.length} refund(s) owed:`, ...lines]);
  });

  // An alias of `ops refund confirm` for each refund of the payment that waits for the operator: the same step, audit and event.
  operatorCommand(
    payment,
    'refund <paymentRef>',
    'confirm every MANUAL or FAILED refund of a payment as made by hand (ops refund confirm, for each); refused while the service is still making one',
    (command) =>
      command.requiredOption(
        '--note <text>',
        `the refund's reference at the gateway or bank (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
      ),
  ).action(async (paymentRef: string, options: CliOptions & { note: string }) => {
    const note = options.note.trim();
    if (!note || note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be 1 to ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const confirmed = await withDatabase((em) =>
      confirmRefundsOfPayment(em, { refundWrites }, paymentRef, note, operatorActor()),
    );
    const attempt = confirmed[0]?.attempt;
    const result = {
      paymentRef: attempt?.paymentRef ?? paymentRef.trim(),
      status: attempt?.status ?? null,
      refundAmount: decimalStringFromMinor(confirmed.reduce((sum, refund) => sum + refund.amount, 0)),
      currency: attempt?.currency ?? null,
      refundedAt: attempt?.refundedAt?.toISOString() ?? null,
      refunds: confirmed.map((refund) => ({
        refundRef: refund.refundRef,
        orderRef: refund.order.orderRef,
        amount: decimalStringFromMinor(refund.amount),
        status: refund.status,
      })),
    };
    output(
      options,
      result,
      `confirmed ${result.refunds.map((refund) => refund.refundRef).join(', ')}: ${result.currency} ${result.refundAmount} back for ${result.paymentRef}; payment is ${result.status}`,
    );
  });
}

function registerPartialReversalCommand(payment: Command): void {
  operatorCommand(
    payment,
    'partial-reversal <paymentRef>',
    "record what the provider gave back of a paid payment on its own (a partial refund in its portal, seen there): a refund SUCCEEDED of cause PROVIDER_REVERSAL for one order's share; the order stays paid",
    (command) =>
      command
        .requiredOption('--order <orderRef>', 'the order whose share the money came from')
        .requiredOption('--amount <amount>', 'what went back, as the portal shows it, e.g. 1500.00')
        .requiredOption(
          '--note <text>',
          `the provider's reference of the refund (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
        ),
  ).action(async (paymentRef: string, options: CliOptions & { order: string; amount: string; note: string }) => {
    const amount = parseOperatorAmount(options.amount);
    if (amount === null)
      throw new Error(
        `--amount must be a decimal amount with at most two decimals, like 1500.00 (got ${JSON.stringify(options.amount)})`,
      );
    const note = options.note.trim();
    if (!note || note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be 1 to ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const refund = await withDatabase((em) =>
      recordPartialReversal(
        em,
        { refundWrites },
        { paymentRef, orderRef: options.order, amount, note, actor: operatorActor() },
      ),
    );
    const result = {
      refundRef: refund.refundRef,
      orderRef: refund.order.orderRef,
      paymentRef: refund.attempt.paymentRef,
      cause: refund.cause,
      status: refund.status,
      amount: decimalStringFromMinor(refund.amount),
      currency: refund.currency,
    };
    output(
      options,
      result,
      `recorded ${result.refundRef}: ${result.currency} ${result.amount} given back by the provider on ${result.paymentRef} for ${result.orderRef}`,
    );
  });
}

function registerReconcileCommand(payment: Command): void {
  operatorCommand(
    payment,
    'reconcile',
    'run the reconciliation job once (the payment watch): ask the providers about the undecided and paid attempts due, expire abandoned ones',
  ).action(async (options: CliOptions) => {
    const summary = await withPayments((em, deps) => watchDueAttempts(em, deps));
    const changed = Object.entries(summary)
      .filter(([key, value]) => key !== 'checked' && value > 0)
      .map(([key, value]) => `${key.toLowerCase()} ${value}`);
    output(options, summary, `checked ${summary.checked} attempt(s)${changed.length ? `: ${changed.join(', ')}` : ''}`);
  });
}

function paymentView({ attempt, sandbox }: PaymentOverview) {
  return {
    paymentRef: attempt.paymentRef,
    scope: attempt.scope,
    groupRef: attempt.group?.groupRef ?? null,
    company: attempt.company.name,
    gateway: attempt.gateway,
    status: attempt.status,
    amount: decimalStringFromMinor(attempt.amount),
    currency: attempt.currency,
    orders: attempt.orders.getItems().map((line) => ({
      orderRef: line.order.orderRef,
      orderStatus: line.order.status,
      amount: decimalStringFromMinor(line.amount),
      settlement: line.settlement ?? null,
    })),
    createdAt: attempt.createdAt.toISOString(),
    expiresAt: attempt.expiresAt.toISOString(),
    completedAt: attempt.completedAt?.toISOString() ?? null,
    closedReason: attempt.closedReason ?? null,
    supersededBy: attempt.supersededBy ?? null,
    gatewayTransactionId: attempt.gatewayTransactionId ?? null,
    gatewayConfirmedAt: attempt.gatewayConfirmedAt?.toISOString() ?? null,
    failureReason: attempt.failureReason ?? null,
    refundAmount: decimalStringFromMinor(attempt.refundAmount),
    refundReason: attempt.refundReason ?? null,
    refundedAt: attempt.refundedAt?.toISOString() ?? null,
    refundNote: attempt.refundNote ?? null,
    sandboxDecision: sandbox
      ? {
          status: sandbox.status,
          reason: sandbox.reason ?? null,
          transactionId: sandbox.transactionId,
          decidedAt: sandbox.decidedAt.toISOString(),
        }
      : null,
  };
}

function describePayment(shown: ReturnType<typeof paymentView>): string[] {
  return [
    `${shown.paymentRef}  ${shown.status}  ${shown.currency} ${shown.amount}  ${shown.gateway}  (${shown.company})`,
    ...shown.orders.map(
      (o) =>
        `  order ${o.orderRef}  ${o.orderStatus}  ${shown.currency} ${o.amount}${o.settlement ? `  ${o.settlement}` : ''}`,
    ),
    `  created ${shown.createdAt}, expires ${shown.expiresAt}${shown.completedAt ? `, completed ${shown.completedAt}` : ''}`,
    shown.closedReason
      ? `  closed by us: ${shown.closedReason}${shown.supersededBy ? ` (by ${shown.supersededBy})` : ''}`
      : '',
    shown.gateway === 'cash'
      ? `  cash recorded by an operator ${shown.gatewayConfirmedAt} (ops order show ${shown.orders[0]?.orderRef} lists the audit entry)`
      : shown.gatewayConfirmedAt
        ? `  gateway confirmed ${shown.gatewayConfirmedAt}, transaction ${shown.gatewayTransactionId}`
        : '  gateway has not confirmed yet',
    shown.failureReason ? `  reason: ${shown.failureReason}` : '',
    shown.refundAmount !== '0.00' && !shown.refundedAt
      ? `  REFUND OWED: ${shown.currency} ${shown.refundAmount} (${shown.refundReason}): ops payment refund ${shown.paymentRef} --note <refund reference>`
      : '',
    shown.refundedAt
      ? `  refunded ${shown.currency} ${shown.refundAmount} (${shown.refundReason}), recorded ${shown.refundedAt}: ${shown.refundNote}`
      : '',
  ].filter(Boolean);
}
