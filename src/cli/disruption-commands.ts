import type { Command } from 'commander';
import { isCalendarDate } from '../kernel/business-date';
import { declareDisruption, endDisruption, listDisruptions, type DisruptionWire } from '../modules/catalogue';
import {
  OPERATOR_NOTE_MAX_LENGTH,
  operatorActor,
  operatorCommand,
  output,
  withDatabase,
  type CliOptions,
} from './context';

/** `ops disruption ...`: weather disruptions of an area, under which covers are extended free (decision record 0102). */
export function registerDisruptionCommands(program: Command): void {
  const disruptions = program
    .command('disruption')
    .description('weather disruptions of an area (D-<year>-<seq>): declare, end, list');

  operatorCommand(
    disruptions,
    'declare',
    'declare a disruption of an area: covers of its routes ending within it may be extended free (webhook disruption.declared to every partner)',
    (command) =>
      command
        .requiredOption('--area <area>', 'the area, as routes carry it (LUKLA)')
        .requiredOption('--from <date>', 'its first day (YYYY-MM-DD, Nepal)')
        .requiredOption('--to <date>', 'its last day (YYYY-MM-DD, Nepal)')
        .requiredOption('--max-days <days>', 'the most days a cover may be extended free under it (1 to 30)')
        .requiredOption('--note <text>', 'what happened, for partners to read'),
  ).action(async (options: CliOptions & { area: string; from: string; to: string; maxDays: string; note: string }) => {
    if (options.note.length > OPERATOR_NOTE_MAX_LENGTH)
      throw new Error(`--note is at most ${OPERATOR_NOTE_MAX_LENGTH} characters`);
    if (!/^\d{1,2}$/.test(options.maxDays)) throw new Error('--max-days must be a whole number of days from 1 to 30');
    const declared = await withDatabase((em) =>
      declareDisruption(
        em,
        {
          area: options.area.toUpperCase(),
          startsOn: options.from,
          endsOn: options.to,
          maxDays: Number(options.maxDays),
          note: options.note,
        },
        operatorActor(),
      ),
    );
    output(options, declared, [`${declared.disruptionId} declared`, ...describe(declared)]);
  });

  operatorCommand(
    disruptions,
    'end <disruptionId>',
    'end a disruption early: its last day becomes --on (default today, Nepal); webhook disruption.ended to every partner',
    (command) => command.option('--on <date>', 'its last day (YYYY-MM-DD), within its declared window'),
  ).action(async (ref: string, options: CliOptions & { on?: string }) => {
    if (options.on !== undefined && !isCalendarDate(options.on)) throw new Error('--on must be a date YYYY-MM-DD');
    const ended = await withDatabase((em) => endDisruption(em, ref, options.on, operatorActor()));
    output(options, ended, [`${ended.disruptionId} ended on ${ended.lastDay}`, ...describe(ended)]);
  });

  operatorCommand(disruptions, 'list', 'list every disruption, latest first', (command) =>
    command.option('--area <area>', 'only this area'),
  ).action(async (options: CliOptions & { area?: string }) => {
    const rows = await withDatabase((em) => listDisruptions(em, { area: options.area, all: true }));
    output(
      options,
      rows,
      rows.length === 0 ? 'no disruption' : [`${rows.length} disruption(s):`, ...rows.flatMap(describe)],
    );
  });
}

function describe(disruption: DisruptionWire): string[] {
  return [
    `${disruption.disruptionId}  ${disruption.status}  ${disruption.area}  ${disruption.startsOn} to ${disruption.lastDay}${disruption.endedOn ? ` (ended early; declared to ${disruption.endsOn})` : ''}  up to ${disruption.maxDays} day(s) free  routes ${disruption.routes.length}`,
    `  ${disruption.note}`,
  ];
}
