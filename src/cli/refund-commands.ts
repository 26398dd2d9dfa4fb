import type { Command } from 'commander';
import { decimalStringFromMinor } from '../kernel/money';
import {
  confirmRefund,
  executeDueRefunds,
  listRefunds,
  refundOverview,
  retryRefund,
  type RefundStatus,
} from '../modules/refunds';
import type { Refund } from '../modules/refunds/entities/refund';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseOperatorAmount } from '../modules/orders';
import { refundWrites, refundTopUp } from '../modules/payments';
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

const STATUSES: readonly RefundStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED', 'MANUAL'];

export function registerRefundCommands(program: Command): void {
  const refund = program
    .command('refund')
    .description(
      "refunds (RFD-<year>-<seq>): list, show, confirm a manual one, retry a failed one, give back an extension's top-up",
    );

  operatorCommand(
    refund,
    'list',
    'list refunds, newest first (by default those that need the operator: MANUAL and FAILED)',
    (command) =>
      command
        .option('--status <status...>', `only these statuses (${STATUSES.join(', ')})`)
        .option('--all', 'every status'),
  ).action(async (options: CliOptions & { status?: string[]; all?: boolean }) => {
    const statuses = options.all ? [] : (options.status ?? ['MANUAL', 'FAILED']).map((status) => status.toUpperCase());
    const unknown = statuses.filter((status) => !STATUSES.some((known) => known === status));
    if (unknown.length > 0)
      throw new Error(`--status must be among ${STATUSES.join(', ')} (got ${unknown.join(', ')})`);
    const rows = await withDatabase(async (em) =>
      (await listRefunds(em, { statuses: STATUSES.filter((known) => statuses.includes(known)) })).map(refundView),
    );
    const lines = rows.map(
      (r) =>
        `${r.refundRef}  ${r.status}  ${r.currency} ${r.amount} (fee ${r.fee})  ${r.gateway}  ${r.cause}  order ${r.orderRef}  payment ${r.paymentRef}${r.lastError ? `  (${r.lastError})` : ''}`,
    );
    output(options, rows, rows.length === 0 ? 'no refund' : [`${rows.length} refund(s):`, ...lines]);
  });

  showCommand(
    refund,
    'show <refundRef>',
    'show a refund: amount, fee, status, provider, tries, audit entries',
    async (em, refundRef) => {
      const { refund: found, audit } = await refundOverview(em, refundRef);
      return {
        ...refundView(found),
        audit: audit.map((entry) => ({ at: entry.at.toISOString(), actor: entry.actor, action: entry.action })),
      };
    },
    (shown) =>
      [
        `${shown.refundRef}  ${shown.status}  ${shown.currency} ${shown.amount} (fee ${shown.fee})  ${shown.gateway}${shown.provider ? ` via ${shown.provider}` : ''}`,
        `  order ${shown.orderRef}, payment ${shown.paymentRef}, cause ${shown.cause}`,
        `  tries ${shown.tries}${shown.nextTryAt ? `, next ${shown.nextTryAt}` : ''}${shown.lastError ? `, last: ${shown.lastError}` : ''}`,
        shown.providerRefundRef ? `  provider reference ${shown.providerRefundRef}` : '',
        shown.completedAt ? `  completed ${shown.completedAt}${shown.note ? `: ${shown.note}` : ''}` : '',
        shown.status === 'MANUAL'
          ? `  refund it by hand, then: ops refund confirm ${shown.refundRef} --note <reference>`
          : '',
        shown.status === 'FAILED' ? `  ops refund retry ${shown.refundRef} (or refund by hand and confirm)` : '',
        ...shown.audit.map((entry) => `  ${entry.at}  ${entry.action}  ${entry.actor}`),
      ].filter(Boolean),
  );

  operatorCommand(
    refund,
    'confirm <refundRef>',
    'record that a MANUAL (or FAILED) refund was made by hand: it becomes SUCCEEDED',
    (command) =>
      command
        .requiredOption(
          '--note <text>',
          `the refund's reference in the provider's portal or bank (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
        )
        .option(
          '--amount <amount>',
          'what you actually gave back, when it differs from the refund (after a partial reversal: what was left), e.g. 3000.00',
        ),
  ).action(async (refundRef: string, options: CliOptions & { note: string; amount?: string }) => {
    const note = options.note.trim();
    if (!note || note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be 1 to ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const amount = options.amount === undefined ? undefined : parseOperatorAmount(options.amount);
    if (amount === null)
      throw new Error(
        `--amount must be a decimal amount with at most two decimals, like 3000.00 (got ${JSON.stringify(options.amount)})`,
      );
    const shown = refundView(
      await withDatabase((em) =>
        confirmRefund(em, { refundWrites }, refundRef, note, operatorActor(), new Date(), amount),
      ),
    );
    output(
      options,
      shown,
      `confirmed ${shown.refundRef}: ${shown.currency} ${shown.amount} back to the customer of ${shown.orderRef}; refund is ${shown.status}`,
    );
  });

  operatorCommand(
    refund,
    'top-up <paymentRef>',
    "give back an applied extension's top-up on its own, through the provider that took it (the extended cover stays)",
    (command) =>
      command.requiredOption(
        '--note <text>',
        `why the top-up goes back (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
      ),
  ).action(async (paymentRef: string, options: CliOptions & { note: string }) => {
    const note = options.note.trim();
    if (!note || note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note must be 1 to ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    const shown = await withPayments(async (em, deps) => {
      const { refund: made, amendment } = await refundTopUp(em, paymentRef, { actor: operatorActor(), note }, deps);
      await executeDueRefunds(em, deps);
      return { ...refundView(await refundByRef(em, made.refundRef)), amendmentRef: amendment.amendmentRef };
    });
    output(
      options,
      shown,
      `top-up ${shown.paymentRef} of ${shown.amendmentRef} goes back: ${shown.refundRef} ${shown.currency} ${shown.amount}, ${shown.status}${shown.status === 'MANUAL' ? ` (refund it by hand, then: ops refund confirm ${shown.refundRef} --note <reference>)` : ''}`,
    );
  });

  operatorCommand(refund, 'retry <refundRef>', 'try a FAILED refund again at its provider, now').action(
    async (refundRef: string, options: CliOptions) => {
      const shown = await withPayments(async (em, deps) => {
        const retried = await retryRefund(em, deps, refundRef, operatorActor());
        await executeDueRefunds(em, deps);
        return refundView(await refundByRef(em, retried.refundRef));
      });
      output(
        options,
        shown,
        `retried ${shown.refundRef}: now ${shown.status}${shown.lastError ? ` (${shown.lastError})` : ''}`,
      );
    },
  );
}

async function refundByRef(em: EntityManager, refundRef: string): Promise<Refund> {
  return (await refundOverview(em.fork(), refundRef)).refund;
}

function refundView(refund: Refund) {
  return {
    refundRef: refund.refundRef,
    status: refund.status,
    cause: refund.cause,
    orderRef: refund.order.orderRef,
    paymentRef: refund.attempt.paymentRef,
    gateway: refund.gateway,
    provider: refund.provider ?? null,
    amount: decimalStringFromMinor(refund.amount),
    fee: decimalStringFromMinor(refund.fee),
    currency: refund.currency,
    tries: refund.tries,
    nextTryAt: refund.nextTryAt?.toISOString() ?? null,
    lastError: refund.lastError ?? null,
    providerRefundRef: refund.providerRefundRef ?? null,
    completedAt: refund.completedAt?.toISOString() ?? null,
    note: refund.note ?? null,
    createdAt: refund.createdAt.toISOString(),
  };
}
