import type { Command } from 'commander';
import { loadConfig } from '../config';
import { decimalStringFromMinor, minorFromDecimalString } from '../kernel/money';
import {
  CASE_STATUSES,
  deskCase,
  deskMove,
  deskQueue,
  guaranteeWire,
  type AssistanceCase,
  type DeskCase,
} from '../modules/assistance';
import { billCase } from '../modules/claims';
import {
  OPERATOR_NOTE_MAX_LENGTH,
  operatorActor,
  operatorCommand,
  output,
  showCommand,
  withDatabase,
  type CliOptions,
} from './context';

/** The amount the desk may guarantee, at most what numeric(12,2) holds. */
const MAX_COST_LIMIT = 9_999_999_999;

export function registerCaseCommands(program: Command): void {
  const cases = program
    .command('case')
    .description(
      'the assistance desk: assistance cases (AST-<year>-<seq>): list, show, review, authorise, decline, complete, close, bill',
    );

  operatorCommand(
    cases,
    'list',
    'list cases: by default the open ones, unreviewed (RECEIVED) first, oldest first',
    (command) => command.option('--status <status...>', `only these statuses (${CASE_STATUSES.join(', ')})`),
  ).action(async (options: CliOptions & { status?: string[] }) => {
    const statuses = options.status?.map((status) => status.toUpperCase());
    const unknown = (statuses ?? []).filter((status) => !CASE_STATUSES.some((known) => known === status));
    if (unknown.length > 0)
      throw new Error(`--status must be among ${CASE_STATUSES.join(', ')} (got ${unknown.join(', ')})`);
    const rows = await withDatabase(async (em) =>
      (await deskQueue(em, statuses ? CASE_STATUSES.filter((known) => statuses.includes(known)) : undefined)).map(
        caseLine,
      ),
    );
    const lines = rows.map(
      (r) =>
        `${r.caseRef}  ${r.status}  opened ${r.openedAt}  ${r.category} ${r.requestedService}  ${r.altitudeMeters} m  order ${r.orderRef}  ${r.travellerName}`,
    );
    output(options, rows, rows.length === 0 ? 'no case' : [`${rows.length} case(s):`, ...lines]);
  });

  showCommand(
    cases,
    'show <caseRef>',
    'show a case: what was reported, the Tourist Police notification facts, the timeline and the audit entries',
    (em, caseRef) => deskCase(em, caseRef).then(shownCase),
    describeCase,
  );

  decision(cases, 'review <caseRef>', 'take a RECEIVED case under review (UNDER_REVIEW)', 'REVIEW');
  decision(
    cases,
    'complete <caseRef>',
    'record that an AUTHORISED evacuation or treatment happened (COMPLETED)',
    'COMPLETE',
  );
  decision(cases, 'close <caseRef>', 'close a COMPLETED case (CLOSED)', 'CLOSE');

  operatorCommand(
    cases,
    'decline <caseRef>',
    'decline a case UNDER_REVIEW (DECLINED); the partner sees the reason',
    (command) =>
      command.requiredOption(
        '--reason <text>',
        `why, in words for the partner and the traveller (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`,
      ),
  ).action(async (caseRef: string, options: CliOptions & { reason: string }) => {
    const reason = noteOf(options.reason, '--reason');
    const shown = await withDatabase((em) =>
      deskMove(em, caseRef, 'DECLINE', { actor: operatorActor(), note: reason }),
    );
    output(options, caseLine(shown.assistanceCase), `declined ${shown.assistanceCase.caseRef}: ${reason}`);
  });

  operatorCommand(
    cases,
    'authorise <caseRef>',
    'authorise a case UNDER_REVIEW (AUTHORISED) with a guarantee of payment to the operator',
    (command) =>
      command
        .requiredOption(
          '--guarantee-ref <ref>',
          "the guarantee of payment's reference, quoted to the operator and the hospital",
        )
        .requiredOption('--operator <name>', 'the helicopter or transport operator authorised')
        .requiredOption(
          '--cost-limit <amount>',
          'the most the insurer pays under this guarantee, in the service currency (e.g. 650000.00)',
        )
        .requiredOption('--hospital <name>', 'the destination hospital')
        .option('--note <text>', 'a note for the timeline (default: the guarantee in words)'),
  ).action(
    async (
      caseRef: string,
      options: CliOptions & {
        guaranteeRef: string;
        operator: string;
        costLimit: string;
        hospital: string;
        note?: string;
      },
    ) => {
      const guarantee = {
        guaranteeRef: noteOf(options.guaranteeRef, '--guarantee-ref', 100),
        operator: noteOf(options.operator, '--operator', 200),
        costLimit: costLimitOf(options.costLimit),
        currency: loadConfig().currency,
        destinationHospital: noteOf(options.hospital, '--hospital', 200),
      };
      const note = options.note === undefined ? undefined : noteOf(options.note, '--note');
      const shown = await withDatabase((em) =>
        deskMove(em, caseRef, 'AUTHORISE', { actor: operatorActor(), note, guarantee }),
      );
      output(
        options,
        caseLine(shown.assistanceCase),
        `authorised ${shown.assistanceCase.caseRef}: guarantee ${guarantee.guaranteeRef} to ${guarantee.operator}, up to ${guarantee.currency} ${decimalStringFromMinor(guarantee.costLimit)}, to ${guarantee.destinationHospital}`,
      );
    },
  );
  operatorCommand(
    cases,
    'bill <caseRef>',
    "record the operator's invoice of a case authorised with a guarantee of payment: it becomes an EMERGENCY_EVACUATION claim paid to the provider, capped at the guarantee",
    (command) =>
      command
        .requiredOption('--invoice <number>', "the operator's invoice number")
        .requiredOption('--amount <amount>', 'the amount invoiced, in its currency (e.g. 4850.00)')
        .requiredOption('--currency <ISO>', 'the currency invoiced, ISO 4217 (NPR, USD, EUR, INR, ...)')
        .option('--provider <name>', 'who invoiced (default: the operator the guarantee was given to)')
        .option('--raise-to <amount>', "pay up to this much NPR, above the guarantee's cost limit (needs --note)")
        .option('--note <text>', 'why the cap is raised'),
  ).action(
    async (
      caseRef: string,
      options: CliOptions & {
        invoice: string;
        amount: string;
        currency: string;
        provider?: string;
        raiseTo?: string;
        note?: string;
      },
    ) => {
      const currency = options.currency.trim().toUpperCase();
      if (!/^[A-Z]{3}$/.test(currency))
        throw new Error(`--currency must be an ISO 4217 code such as USD (got "${options.currency}")`);
      if ((options.raiseTo === undefined) !== (options.note === undefined))
        throw new Error('--raise-to and --note go together: the desk says why it pays more than the guarantee');
      const raise =
        options.raiseTo === undefined
          ? undefined
          : { to: amountOf(options.raiseTo, '--raise-to'), note: noteOf(options.note ?? '', '--note') };
      const { noticeDays } = loadConfig().claims;
      const billed = await withDatabase((em) =>
        billCase(
          em,
          caseRef,
          {
            invoiceNumber: noteOf(options.invoice, '--invoice', 100),
            amount: amountOf(options.amount, '--amount'),
            currency,
            ...(options.provider === undefined ? {} : { providerName: noteOf(options.provider, '--provider', 200) }),
            ...(raise ? { raise } : {}),
          },
          { actor: operatorActor(), noticeDays },
        ),
      );
      const { claim } = billed.view;
      const cap = decimalStringFromMinor(claim.payoutCap ?? 0);
      output(
        options,
        {
          claimRef: claim.claimRef,
          caseRef: caseRef.trim().toUpperCase(),
          orderRef: claim.order.orderRef,
          status: claim.status,
          claimType: claim.claimType,
          payee: claim.payee,
          payoutCap: cap,
          flags: claim.flags,
        },
        `billed ${caseRef.trim().toUpperCase()} as ${claim.claimRef} (EMERGENCY_EVACUATION, paid to the provider), payable up to NPR ${cap}`,
      );
    },
  );
}

/** A move that takes only an optional note. */
function decision(parent: Command, usage: string, description: string, action: 'REVIEW' | 'COMPLETE' | 'CLOSE'): void {
  operatorCommand(parent, usage, description, (command) =>
    command.option('--note <text>', `a note for the timeline (at most ${OPERATOR_NOTE_MAX_LENGTH} characters)`),
  ).action(async (caseRef: string, options: CliOptions & { note?: string }) => {
    const note = options.note === undefined ? undefined : noteOf(options.note, '--note');
    const shown = await withDatabase((em) => deskMove(em, caseRef, action, { actor: operatorActor(), note }));
    output(
      options,
      caseLine(shown.assistanceCase),
      `${shown.assistanceCase.caseRef} is now ${shown.assistanceCase.status}`,
    );
  });
}

/** Control characters, line and paragraph separators, direction overrides: what the contract's text fields refuse (the partner reads these). */
const UNPRINTABLE =
  /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

function noteOf(text: string, option: string, max = OPERATOR_NOTE_MAX_LENGTH): string {
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > max) throw new Error(`${option} must be 1 to ${max} characters`);
  if (UNPRINTABLE.test(trimmed))
    throw new Error(`${option} must not contain control characters, line breaks or direction overrides`);
  return trimmed;
}

/** An amount of money as typed, in hundredths: more than 0 and at most what numeric(12,2) holds. */
function amountOf(text: string, option: string): number {
  let minor: number;
  try {
    minor = minorFromDecimalString(text);
  } catch {
    throw new Error(`${option} must be an amount such as 4850.00 (got "${text}")`);
  }
  if (minor <= 0 || minor > MAX_COST_LIMIT)
    throw new Error(`${option} must be more than 0 and at most ${decimalStringFromMinor(MAX_COST_LIMIT)}`);
  return minor;
}

const costLimitOf = (text: string): number => amountOf(text, '--cost-limit');

function caseLine(assistanceCase: AssistanceCase) {
  return {
    caseRef: assistanceCase.caseRef,
    status: assistanceCase.status,
    orderRef: assistanceCase.order.orderRef,
    travellerName: assistanceCase.traveller.name,
    category: assistanceCase.category,
    requestedService: assistanceCase.requestedService,
    altitudeMeters: assistanceCase.altitudeMeters,
    openedAt: assistanceCase.openedAt.toISOString(),
    reviewedAt: assistanceCase.reviewedAt?.toISOString() ?? null,
    coverageNotes: assistanceCase.coverageNotes,
    guarantee: guaranteeWire(assistanceCase),
    declineReason: assistanceCase.declineReason ?? null,
    withdrawalReason: assistanceCase.withdrawalReason ?? null,
  };
}

function shownCase(view: DeskCase) {
  const { assistanceCase } = view;
  return {
    ...caseLine(assistanceCase),
    policyNumber: assistanceCase.order.policyNumber ?? null,
    location: assistanceCase.location,
    summary: assistanceCase.summary,
    reporter: assistanceCase.reporter,
    proposedOperator: assistanceCase.proposedOperator ?? null,
    documentIds: view.documentIds,
    police: view.police,
    timeline: view.timeline.map((entry) => ({
      at: entry.at.toISOString(),
      kind: entry.kind,
      by: entry.by,
      actor: entry.actor,
      status: entry.status,
      note: entry.note ?? null,
      changes: entry.changes,
    })),
    audit: view.audit.map((entry) => ({
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      details: entry.details,
    })),
  };
}

function describeCase(shown: ReturnType<typeof shownCase>): string[] {
  return [
    `${shown.caseRef}  ${shown.status}  ${shown.category}  ${shown.requestedService}  order ${shown.orderRef}${shown.policyNumber ? `  policy ${shown.policyNumber}` : ''}`,
    `  opened ${shown.openedAt}${shown.reviewedAt ? `, reviewed ${shown.reviewedAt}` : ''}; ${shown.altitudeMeters} m${shown.coverageNotes.length ? `; coverage notes: ${shown.coverageNotes.join(', ')}` : ''}`,
    `  reported by ${shown.reporter.name} (${shown.reporter.role}), ${shown.reporter.phone}${shown.proposedOperator ? `; proposed operator ${shown.proposedOperator}` : ''}`,
    `  summary: ${shown.summary}`,
    'Tourist Police notification (Tourist Search, Rescue, Medication and Monitoring Guidelines 2018):',
    `  name: ${shown.police.name}`,
    `  nationality: ${shown.police.nationality}`,
    `  passport number: ${shown.police.passportNumber ?? '(not given: the traveller registered another identity document)'}`,
    `  location: ${shown.police.location}`,
    `  time: ${shown.police.time}`,
    shown.guarantee
      ? `  guarantee ${shown.guarantee.guaranteeRef}: ${shown.guarantee.operator}, up to ${shown.guarantee.currency} ${shown.guarantee.costLimit}, to ${shown.guarantee.destinationHospital}`
      : '',
    shown.declineReason ? `  declined: ${shown.declineReason}` : '',
    shown.withdrawalReason ? `  withdrawn: ${shown.withdrawalReason}` : '',
    shown.documentIds.length ? `  documents: ${shown.documentIds.join(', ')}` : '',
    'Timeline:',
    ...shown.timeline.map(
      (entry) =>
        `  ${entry.at}  ${entry.kind}  ${entry.status}  ${entry.by} ${entry.actor}${entry.note ? `: ${entry.note}` : ''}`,
    ),
    'Audit:',
    ...shown.audit.map((entry) => `  ${entry.at}  ${entry.action}  ${entry.actor}`),
  ].filter(Boolean);
}
