import type { Command } from 'commander';
import { isCalendarDate } from '../kernel/business-date';
import { decimalStringFromMinor, minorFromDecimalString } from '../kernel/money';
import {
  CLAIM_STATUSES,
  claimDetailWire,
  claimQueue,
  deskClaim,
  deskMove,
  rateUnits,
  type Claim,
  type DeskClaim,
  type DeskDecision,
  type ItemFigures,
} from '../modules/claims';
import { loadConfig } from '../config';
import {
  OPERATOR_NOTE_MAX_LENGTH,
  operatorActor,
  operatorCommand,
  output,
  showCommand,
  withDatabase,
  type CliOptions,
} from './context';

const DECLINE_REASONS = [
  'NOT_COVERED',
  'OUTSIDE_COVER_WINDOW',
  'ALTITUDE_ABOVE_COVER',
  'PRE_EXISTING_CONDITION',
  'INSUFFICIENT_EVIDENCE',
  'DUPLICATE',
  'OTHER',
] as const;
const PAYOUT_METHODS = ['BANK_TRANSFER', 'KHALTI', 'CHEQUE'] as const;

/** `ops claim ...`: the claims desk (decision record 0095). */
export function registerClaimCommands(program: Command): void {
  const claims = program
    .command('claim')
    .description(
      'the claims desk: claims (CLM-<year>-<seq>): list, show, assess, request-info, approve, decline, pay, close',
    );

  operatorCommand(claims, 'list', 'list claims: by default those waiting for the desk, oldest first', (command) =>
    command.option('--status <status...>', `only these statuses (${CLAIM_STATUSES.join(', ')})`),
  ).action(async (options: CliOptions & { status?: string[] }) => {
    const wanted = options.status?.map((status) => status.toUpperCase());
    const unknown = (wanted ?? []).filter((status) => !CLAIM_STATUSES.some((known) => known === status));
    if (unknown.length > 0)
      throw new Error(`--status must be among ${CLAIM_STATUSES.join(', ')} (got ${unknown.join(', ')})`);
    const statuses = wanted ? CLAIM_STATUSES.filter((known) => wanted.includes(known)) : undefined;
    const rows = await withDatabase(async (em) => (await claimQueue(em, statuses)).map(claimLine));
    output(
      options,
      rows,
      rows.length === 0
        ? 'no claim'
        : [
            `${rows.length} claim(s):`,
            ...rows.map(
              (r) =>
                `${r.claimRef}  ${r.status}  ${r.claimType}  filed ${r.filedAt}  incident ${r.incidentDate}  order ${r.orderRef}${r.flags.length ? `  flags ${r.flags.join(',')}` : ''}`,
            ),
          ],
    );
  });

  showCommand(
    claims,
    'show <claimRef>',
    'show a claim: items, decisions, documents, flags, timeline, audit',
    (em, ref) => deskClaim(em, ref).then(shownClaim),
    describeClaim,
  );

  move(
    claims,
    'assess <claimRef>',
    'take a SUBMITTED claim under assessment (UNDER_ASSESSMENT)',
    withNote,
    (options) => ({
      step: 'ASSESS',
      note: optionalNote(options.note),
    }),
  );

  move(
    claims,
    'request-info <claimRef>',
    'ask the partner for more (INFORMATION_REQUESTED, webhook claim.information_requested)',
    (command) => command.requiredOption('--note <text>', 'what the desk needs, in words for the partner'),
    (options) => ({ step: 'REQUEST_INFORMATION', note: noteOf(options.note ?? '', '--note') }),
  );

  move(
    claims,
    'approve <claimRef>',
    'approve a claim UNDER_ASSESSMENT: every item in full unless --amount says less; each foreign item needs --rate and --rate-date',
    (command) =>
      command
        .option(
          '--amount <position=amount...>',
          "an item's approved amount in its own currency, e.g. 1=380.00 (0 declines the item)",
        )
        .option(
          '--rate <position=rate...>',
          'NPR for one unit of a foreign item, Nepal Rastra Bank reference, e.g. 1=133.50',
        )
        .option('--rate-date <date>', 'the date of the rates (YYYY-MM-DD)')
        .option('--note <text>', 'a note for the partner'),
    (options) => ({ step: 'APPROVE', figures: figuresOf(options), note: optionalNote(options.note) }),
  );

  move(
    claims,
    'decline <claimRef>',
    'decline a claim UNDER_ASSESSMENT with a reason code (OTHER needs --note)',
    (command) =>
      command
        .requiredOption('--reason <code>', DECLINE_REASONS.join(', '))
        .option('--note <text>', 'the reason in words for the partner'),
    (options) => {
      const reason = DECLINE_REASONS.find((code) => code === options.reason?.toUpperCase());
      if (!reason) throw new Error(`--reason must be one of ${DECLINE_REASONS.join(', ')}`);
      return { step: 'DECLINE', reason, note: optionalNote(options.note) };
    },
  );

  move(
    claims,
    'pay <claimRef>',
    "record the insurer's payment of an APPROVED or PARTIALLY_APPROVED claim (PAID, webhook claim.paid)",
    (command) =>
      command
        .requiredOption('--method <method>', PAYOUT_METHODS.join(', '))
        .requiredOption('--reference <ref>', "the bank's or wallet's reference of the payment")
        .requiredOption('--paid-on <date>', 'the day it was paid (YYYY-MM-DD)')
        .option('--note <text>', 'a note for the timeline'),
    (options) => {
      const method = PAYOUT_METHODS.find((known) => known === options.method?.toUpperCase());
      if (!method) throw new Error(`--method must be one of ${PAYOUT_METHODS.join(', ')}`);
      if (!options.paidOn || !isCalendarDate(options.paidOn)) throw new Error('--paid-on must be a date YYYY-MM-DD');
      return {
        step: 'PAY',
        payout: { method, reference: noteOf(options.reference ?? '', '--reference', 100), paidOn: options.paidOn },
        note: optionalNote(options.note),
      };
    },
  );

  move(claims, 'close <claimRef>', 'close a PAID or DECLINED claim (CLOSED)', withNote, (options) => ({
    step: 'CLOSE',
    note: optionalNote(options.note),
  }));
}

const withNote = (command: Command) => command.option('--note <text>', 'a note for the timeline');

interface MoveOptions extends CliOptions {
  note?: string;
  amount?: string[];
  rate?: string[];
  rateDate?: string;
  reason?: string;
  method?: string;
  reference?: string;
  paidOn?: string;
}

function move(
  parent: Command,
  usage: string,
  description: string,
  ownOptions: (command: Command) => Command,
  decision: (options: MoveOptions) => DeskDecision,
): void {
  operatorCommand(parent, usage, description, ownOptions).action(async (claimRef: string, options: MoveOptions) => {
    const wanted = decision(options);
    const moved = await withDatabase((em) => deskMove(em, claimRef, wanted, operatorActor()));
    const claim = moved.view.claim;
    output(options, claimLine(claim), `${claim.claimRef} is now ${claim.status}`);
  });
}

/** `position=value` pairs into a map (position from 1). */
function pairsOf(values: readonly string[] | undefined, option: string): Map<number, string> {
  const pairs = new Map<number, string>();
  for (const value of values ?? []) {
    const match = /^(\d{1,2})=(.+)$/.exec(value.trim());
    if (!match?.[1] || !match[2]) throw new Error(`${option} takes position=value, e.g. 1=133.50 (got "${value}")`);
    pairs.set(Number(match[1]), match[2]);
  }
  return pairs;
}

function figuresOf(options: MoveOptions): Map<number, ItemFigures> {
  const amounts = pairsOf(options.amount, '--amount');
  const rates = pairsOf(options.rate, '--rate');
  if (options.rateDate !== undefined && !isCalendarDate(options.rateDate))
    throw new Error('--rate-date must be a date YYYY-MM-DD');
  const figures = new Map<number, ItemFigures>();
  for (const position of new Set([...amounts.keys(), ...rates.keys()])) {
    const amount = amounts.get(position);
    const rate = rates.get(position);
    if (rate !== undefined && rateUnits(rate) === null)
      throw new Error(`--rate ${position}= must be a positive rate with at most four decimals (got "${rate}")`);
    figures.set(position, {
      ...(amount !== undefined ? { approvedAmount: amountOf(amount) } : {}),
      ...(rate !== undefined ? { exchangeRate: rate } : {}),
      rateDate: options.rateDate ?? null,
    });
  }
  return figures;
}

function amountOf(text: string): number {
  try {
    return minorFromDecimalString(text);
  } catch {
    throw new Error(`--amount must be an amount such as 380.00 (got "${text}")`);
  }
}

const UNPRINTABLE =
  /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

function noteOf(text: string, option: string, max = OPERATOR_NOTE_MAX_LENGTH): string {
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > max) throw new Error(`${option} must be 1 to ${max} characters`);
  if (UNPRINTABLE.test(trimmed))
    throw new Error(`${option} must not contain control characters, line breaks or direction overrides`);
  return trimmed;
}

const optionalNote = (text: string | undefined) => (text === undefined ? undefined : noteOf(text, '--note'));

function claimLine(claim: Claim) {
  return {
    claimRef: claim.claimRef,
    status: claim.status,
    claimType: claim.claimType,
    orderRef: claim.order.orderRef,
    incidentDate: claim.incidentDate,
    filedAt: claim.filedAt.toISOString(),
    flags: claim.flags,
  };
}

/** A claim billed from a guarantee of payment is payable up to its cap (decision record 0101). */
const capOf = (claim: Claim): string | null =>
  claim.payoutCap === null || claim.payoutCap === undefined ? null : decimalStringFromMinor(claim.payoutCap);

function shownClaim(shown: DeskClaim) {
  return {
    ...claimDetailWire(shown.view, shown.timeline, null, loadConfig().certificate.assistancePhone),
    payoutCap: capOf(shown.view.claim),
    payoutCapNote: shown.view.claim.payoutCapNote ?? null,
    audit: shown.audit.map((entry) => ({
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      details: entry.details,
    })),
  };
}

function describeClaim(shown: ReturnType<typeof shownClaim>): string[] {
  return [
    `${shown.claimRef}  ${shown.status}  ${shown.claimType}  order ${shown.orderRef}${shown.policyNumber ? `  policy ${shown.policyNumber}` : ''}`,
    `  incident ${shown.incidentDate}${shown.location ? ` at ${shown.location}` : ''}${shown.altitudeMeters !== null ? `, ${shown.altitudeMeters} m` : ''}: ${shown.incidentDescription}`,
    shown.assistanceCaseRef ? `  assistance case ${shown.assistanceCaseRef}` : '',
    shown.flags.length ? `  flags: ${shown.flags.join(', ')}` : '',
    shown.payoutCap
      ? `  payable up to NPR ${shown.payoutCap} (guarantee of payment${shown.payoutCapNote ? `, raised: ${shown.payoutCapNote}` : ''})`
      : '',
    `  payee: ${shown.payee.type}${shown.payee.method ? ` by ${shown.payee.method}` : ''}${shown.payee.accountNumber ? ` to ${shown.payee.accountNumber}` : ''}`,
    'Items:',
    ...shown.items.map(
      (item) =>
        `  ${item.position}. ${item.currency} ${item.amount}  invoice ${item.invoiceNumber} (${item.providerName}): ${item.description}${item.decision ? `  -> approved ${item.decision.approvedAmount}${item.decision.exchangeRate ? ` at ${item.decision.exchangeRate} (${item.decision.rateDate})` : ''} = NPR ${item.decision.approvedNpr}` : ''}`,
    ),
    shown.documents.length
      ? `Documents: ${shown.documents.map((d) => `${d.documentType} ${d.documentId}`).join(', ')}`
      : '',
    shown.documentsNeeded.length ? `Still needed: ${shown.documentsNeeded.join(', ')}` : '',
    shown.decision
      ? `Decision: NPR ${shown.decision.approvedTotal} (excess ${shown.decision.excessApplied})${shown.decision.declineReason ? `, declined ${shown.decision.declineReason}` : ''}${shown.decision.note ? `: ${shown.decision.note}` : ''}`
      : '',
    shown.payout
      ? `Payout: NPR ${shown.payout.amount} by ${shown.payout.method}, ${shown.payout.reference}, on ${shown.payout.paidOn}`
      : '',
    shown.withdrawalReason ? `Withdrawn: ${shown.withdrawalReason}` : '',
    'Timeline:',
    ...shown.timeline.map(
      (entry) => `  ${entry.at}  ${entry.kind}  ${entry.status}  ${entry.by}${entry.note ? `: ${entry.note}` : ''}`,
    ),
    'Audit:',
    ...shown.audit.map((entry) => `  ${entry.at}  ${entry.action}  ${entry.actor}`),
  ].filter(Boolean);
}
