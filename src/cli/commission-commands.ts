import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { loadConfig } from '../config';
import { decimalStringFromMinor } from '../kernel/money';
import { loadCertificateFonts } from '../modules/certificates';
import {
  isPeriod,
  printableStatement,
  statementCsv,
  statementsOfPeriod,
  type CompanyStatement,
} from '../modules/commissions';
import { setAgentCommission, setCompanyCommission, setCompanyPan, type PercentChange } from '../modules/partners';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

interface StatementOptions extends CliOptions {
  period: string;
  company?: string;
  csv?: string;
  pdf?: string;
}

/** The commands `company` and `agent` were registered with (company-commands, promo-commands). */
function commandNamed(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (!found) throw new Error(`register the ${name} commands before the commission commands`);
  return found;
}

const changed = (what: string, change: PercentChange) =>
  `${what} ${change.id} ${change.name}: commission ${change.previousPercent} % -> ${change.commissionPercent} % (orders paid from now on; lines already written keep their percent)`;

export function registerCommissionCommands(program: Command): void {
  operatorCommand(
    commandNamed(program, 'company'),
    'set-commission <id> <percent>',
    "set a company's commission percent for orders paid from now on",
  ).action(async (id: string, percent: string, options: CliOptions) => {
    const change = await withDatabase((em) => setCompanyCommission(em, id, percent));
    output(options, change, changed('company', change));
  });

  operatorCommand(
    commandNamed(program, 'company'),
    'set-pan <id> <pan>',
    "set a company's PAN/VAT number, printed on its commission statements",
  ).action(async (id: string, pan: string, options: CliOptions) => {
    const change = await withDatabase((em) => setCompanyPan(em, id, pan));
    output(
      options,
      change,
      `company ${change.id} ${change.name}: PAN/VAT ${change.previousPanNumber ?? 'none'} -> ${change.panNumber}`,
    );
  });

  operatorCommand(
    commandNamed(program, 'agent'),
    'set-commission <id> <percent>',
    "set a sales agent's commission percent for orders paid from now on",
  ).action(async (id: string, percent: string, options: CliOptions) => {
    const change = await withDatabase((em) => setAgentCommission(em, id, percent));
    output(options, change, changed('agent', change));
  });

  const commission = program.command('commission').description('commission statements');
  operatorCommand(
    commission,
    'statement',
    "every partner's commission statement of a Nepal month (or one partner's), as totals, CSV files or PDFs",
    (command) =>
      command
        .requiredOption('--period <YYYY-MM>', 'the Nepal month')
        .option('--company <id>', 'only this company')
        .option('--csv <dir>', 'write each statement as commission-<period>-<companyId>.csv into this directory')
        .option('--pdf <dir>', 'write each statement as commission-<period>-<companyId>.pdf into this directory'),
  ).action(async (options: StatementOptions) => {
    if (!isPeriod(options.period)) throw new Error(`--period must be a month like 2030-09 (got "${options.period}")`);
    if (options.csv && options.pdf) throw new Error('give --csv or --pdf, not both');
    const config = loadConfig();
    const written = await withDatabase(async (em) => {
      const statements = await statementsOfPeriod(em, options.period, options.company);
      const files: string[] = [];
      const directory = options.csv ?? options.pdf;
      if (directory) fs.mkdirSync(directory, { recursive: true });
      const fonts = options.pdf ? loadCertificateFonts() : undefined;
      for (const statement of statements) {
        if (!directory) continue;
        const file = path.join(
          directory,
          `commission-${options.period}-${statement.companyId}.${options.csv ? 'csv' : 'pdf'}`,
        );
        const stream =
          options.csv || !fonts
            ? statementCsv(em, statement.companyId, options.period)
            : await printableStatement(em, statement.companyId, options.period, {
                issuer: config.payments.merchantName,
                currency: config.currency,
                fonts,
              });
        await pipeline(stream, fs.createWriteStream(file));
        files.push(file);
      }
      return { statements, files };
    });
    const lines = written.statements.map((statement) => statementLine(statement, config.currency));
    output(options, { period: options.period, statements: written.statements, files: written.files }, [
      ...(lines.length > 0 ? lines : [`no commission lines in ${options.period}`]),
      ...written.files.map((file) => `wrote ${file}`),
    ]);
  });
}

function statementLine(statement: CompanyStatement, currency: string): string {
  const money = (amount: number) => `${currency} ${decimalStringFromMinor(amount)}`;
  return `${statement.period} ${statement.status.padEnd(6)} ${statement.companyId} ${statement.companyName}: earned ${money(statement.earned)}, reversed ${money(statement.reversed)}, net ${money(statement.net)} (${statement.lineCount} lines)`;
}
