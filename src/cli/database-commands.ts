import type { Command } from 'commander';
import { output, withDatabase, type CliOptions } from './context';

export function registerDatabaseCommands(program: Command): void {
  const database = program.command('db').description('the service database');

  database
    .command('migrate')
    .description('apply pending migrations (and the catalogue seed): the release step before starting or rolling N server processes')
    .option('--json', 'print JSON')
    // withDatabase migrates and seeds before every command: here that is the whole job.
    .action(async (options: CliOptions) => {
      await withDatabase(async () => undefined);
      output(options, { migrated: true }, 'database migrated');
    });
}
