import type { Command } from 'commander';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerDatabaseCommands(program: Command): void {
  const database = program.command('db').description('the service database');

  operatorCommand(
    database,
    'migrate',
    'apply pending migrations (and the catalogue seed): the release step before starting or rolling N server processes',
  )
    // withDatabase migrates and seeds before every command: here that is the whole job.
    .action(async (options: CliOptions) => {
      await withDatabase(async () => undefined);
      output(options, { migrated: true }, 'database migrated');
    });
}
