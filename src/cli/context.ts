import type { Command } from 'commander';
import os from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { openDatabase } from '../kernel/db/database';
import { initOrm } from '../database';
import { migrate } from '../kernel/db/orm';
import { modeOfSettings, refuseOtherMode } from '../kernel/db/database-mode';
import { seed } from '../seed';
import { backfillAttemptProviders, createGateways, refundWrites } from '../modules/payments';
import { createLogger } from '../kernel/logging/logger';
import type { PaymentDeps } from '../modules/payments';
import { printableJson, printableLines } from './terminal-text';

export interface CliOptions {
  json?: boolean;
}

/**
 * An operator command: every one prints readable lines, or JSON with --json (see output).
 * `ownOptions` declares the command's own options before --json, so its help lists them first.
 */
export function operatorCommand(
  parent: Command,
  usage: string,
  description: string,
  ownOptions: (command: Command) => Command = (command) => command,
): Command {
  return ownOptions(parent.command(usage).description(description)).option('--json', 'print JSON');
}

/** `<noun> show <id>`: one record read in the database, shaped for printing, then printed (see output). */
export function showCommand<Shown>(
  parent: Command,
  usage: string,
  description: string,
  read: (em: EntityManager, id: string) => Promise<Shown>,
  describe: (shown: Shown) => string[],
): Command {
  return operatorCommand(parent, usage, description).action(async (id: string, options: CliOptions) => {
    const shown = await withDatabase((em) => read(em, id));
    output(options, shown, describe(shown));
  });
}

/** Operator notes (cash receipts, cancellations, refunds) are kept in audit entries, at most this long. */
export const OPERATOR_NOTE_MAX_LENGTH = 500;

/**
 * Prints a result as JSON (--json) or as readable lines, with anything a terminal would act on
 * escaped (see terminal-text). Give the lines one by one: a line break inside one is escaped.
 */
export function output(options: CliOptions, value: unknown, lines: string | readonly string[]): void {
  console.log(options.json ? printableJson(value) : printableLines(lines));
}

/**
 * Runs one operator command against the same database the server uses (DATABASE_URL, or the
 * embedded cluster under DATA_DIR: reused while the server runs, started and stopped otherwise).
 * A command never seeds the demo partners, and refuses a database whose recorded mode is not its
 * settings' (decision record 0093): the operator's shell is not the deployment's environment.
 */
export async function withDatabase<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config);
  const orm = await initOrm(database.url, 2);
  try {
    await refuseOtherMode(orm.em.fork(), modeOfSettings(config.isProduction));
    await migrate(orm);
    await backfillAttemptProviders(orm.em.fork(), config.payments);
    await seed(orm.em.fork(), { refreshCatalogue: false, demoPartners: false });
    return await work(orm.em.fork());
  } finally {
    await orm.close();
    await database.release();
  }
}

/**
 * withDatabase for commands that touch payments: the same gateway adapters the server has, so a
 * command that closes a checkout asks its gateway first, like the API does.
 */
export function withPayments<T>(work: (em: EntityManager, deps: PaymentDeps) => Promise<T>): Promise<T> {
  const config = loadConfig();
  return withDatabase((em) => {
    const logger = createLogger('warn');
    const gateways = createGateways(
      config,
      () => config.publicBaseUrl,
      () => em.fork(),
      logger,
    );
    return work(em, { payments: config.payments, gateways: gateways.registry, logger, refundWrites });
  });
}

/**
 * Who an audit entry names for a change made from this command line: the tool and the OS user
 * running it (sudo's invoking user when there is one).
 */
export function operatorActor(): string {
  let user = process.env.SUDO_USER;
  try {
    user ??= os.userInfo().username;
  } catch {
    // A uid with no passwd entry (some containers): fall back to the environment.
  }
  return `operator-cli:${user ?? process.env.USER ?? 'unknown'}`;
}
