import type { Command } from 'commander';
import { loadConfig } from '../config';
import { decimalStringFromMinor } from '../domain/money';
import { PaymentAttempt } from '../entities/payment-attempt';
import { SandboxGatewayPayment } from '../entities/sandbox-gateway-payment';
import { createGateways } from '../gateways';
import { createLogger } from '../logger';
import { reconcileDueAttempts } from '../services/payment-reconciliation';
import { output, withDatabase, type CliOptions } from './context';

export function registerPaymentCommands(program: Command): void {
  const payment = program.command('payment').description('payment attempts');

  payment
    .command('show <paymentRef>')
    .description('show a payment attempt: status, orders, gateway word, refund owed')
    .option('--json', 'print JSON')
    .action(async (paymentRef: string, options: CliOptions) => {
      const shown = await withDatabase(async (em) => {
        const attempt = await em.findOne(PaymentAttempt, { paymentRef }, { populate: ['orders.order', 'group', 'company'] });
        if (!attempt) throw new Error(`no payment attempt ${paymentRef}`);
        const sandbox = await em.findOne(SandboxGatewayPayment, { paymentRef });
        return {
          paymentRef: attempt.paymentRef,
          scope: attempt.scope,
          groupRef: attempt.group?.groupRef ?? null,
          company: attempt.company.name,
          gateway: attempt.gateway,
          status: attempt.status,
          amount: decimalStringFromMinor(attempt.amount),
          currency: attempt.currency,
          orders: attempt.orders.getItems().map((line) => ({ orderRef: line.order.orderRef, orderStatus: line.order.status, amount: decimalStringFromMinor(line.amount) })),
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
          sandboxDecision: sandbox ? { status: sandbox.status, reason: sandbox.reason ?? null, transactionId: sandbox.transactionId, decidedAt: sandbox.decidedAt.toISOString() } : null,
        };
      });
      const lines = [
        `${shown.paymentRef}  ${shown.status}  ${shown.currency} ${shown.amount}  ${shown.gateway}  (${shown.company})`,
        ...shown.orders.map((o) => `  order ${o.orderRef}  ${o.orderStatus}  ${shown.currency} ${o.amount}`),
        `  created ${shown.createdAt}, expires ${shown.expiresAt}${shown.completedAt ? `, completed ${shown.completedAt}` : ''}`,
        shown.closedReason ? `  closed by us: ${shown.closedReason}${shown.supersededBy ? ` (by ${shown.supersededBy})` : ''}` : '',
        shown.gateway === 'cash'
          ? `  cash recorded by an operator ${shown.gatewayConfirmedAt} (ops order show ${shown.orders[0]?.orderRef} lists the audit entry)`
          : shown.gatewayConfirmedAt ? `  gateway confirmed ${shown.gatewayConfirmedAt}, transaction ${shown.gatewayTransactionId}` : '  gateway has not confirmed yet',
        shown.failureReason ? `  reason: ${shown.failureReason}` : '',
        shown.refundAmount !== '0.00' ? `  REFUND OWED: ${shown.currency} ${shown.refundAmount} (${shown.refundReason})` : '',
      ].filter(Boolean);
      output(options, shown, lines);
    });

  payment
    .command('reconcile')
    .description('run the reconciliation job once: ask the gateways about open attempts, expire abandoned ones')
    .option('--json', 'print JSON')
    .action(async (options: CliOptions) => {
      const config = loadConfig();
      const summary = await withDatabase(async (em) => {
        // Lookups need no secret, but the sandbox secrets file of DATA_DIR is what the server uses too.
        const gateways = createGateways(config, () => config.publicBaseUrl, () => em.fork());
        return reconcileDueAttempts(em, { payments: config.payments, gateways: gateways.registry, logger: createLogger('warn') });
      });
      const changed = Object.entries(summary).filter(([key, value]) => key !== 'checked' && value > 0).map(([key, value]) => `${key.toLowerCase()} ${value}`);
      output(options, summary, `checked ${summary.checked} attempt(s)${changed.length ? `: ${changed.join(', ')}` : ''}`);
    });
}
