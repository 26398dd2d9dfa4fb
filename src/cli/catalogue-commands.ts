import path from 'node:path';
import type { Command } from 'commander';
import { importCatalogue, readCatalogueFile } from '../modules/catalogue';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerCatalogueCommands(program: Command): void {
  const catalogue = program.command('catalogue').description('routes and insurance packages (ctgs) partners can buy');

  operatorCommand(
    catalogue,
    'import <file>',
    'insert or update the routes, packages, coverage and devices of a catalogue YAML file (format: docs/catalogue-format.md)',
    (command) => command.option('--dry-run', 'check the file and report what it holds, without writing'),
  )
    .addHelpText(
      'after',
      '\nEntries are matched by id: new ones are inserted, existing ones updated, none deleted (retire one with\n' +
        '`active: false`). The file is checked as a whole first; a file with any problem imports nothing.\n' +
        'Running servers reload their catalogue at once.\n\nExample:\n  npm run ops -- catalogue import src/modules/catalogue/catalogue.yaml --dry-run',
    )
    .action(async (file: string, options: CliOptions & { dryRun?: boolean }) => {
      const parsed = readCatalogueFile(path.resolve(file));
      const counts = { routes: parsed.routes.length, ctgs: parsed.ctgs.length };
      const summary = options.dryRun ? counts : await withDatabase((em) => importCatalogue(em, parsed));
      output(
        options,
        { file, dryRun: Boolean(options.dryRun), ...summary },
        `${options.dryRun ? 'checked' : 'imported'} ${file}: ${summary.routes} routes, ${summary.ctgs} packages${options.dryRun ? ' (nothing written)' : ''}`,
      );
    });
}
