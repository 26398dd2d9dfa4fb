import { Command } from 'commander';
import { registerCaseCommands } from './case-commands';
import { registerClaimCommands } from './claim-commands';
import { registerCatalogueCommands } from './catalogue-commands';
import { registerCommissionCommands } from './commission-commands';
import { registerCompanyCommands } from './company-commands';
import { registerDatabaseCommands } from './database-commands';
import { registerDemoCommand } from './demo-command';
import { registerDisruptionCommands } from './disruption-commands';
import { registerDocumentCommands } from './document-commands';
import { registerOrderCommands } from './order-commands';
import { registerPaymentCommands } from './payment-commands';
import { registerPromoCommands } from './promo-commands';
import { registerRefundCommands } from './refund-commands';
import { registerWebhookCommands } from './webhook-commands';
import { printableJson, printableLine } from './terminal-text';

const program = new Command();
program
  .name('ops')
  .description('Operator command line of the Partner Booking and Payment Service')
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nIt uses the same database as the server: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR.\n' +
      'Every command takes --json for machine-readable output (errors too: {"error": "..."} on stderr).\n' +
      'Run `npm run ops -- <command> --help` for the options of a command.',
  );
registerCompanyCommands(program);
registerDatabaseCommands(program);
registerCatalogueCommands(program);
registerDemoCommand(program);
registerDocumentCommands(program);
registerOrderCommands(program);
registerPaymentCommands(program);
registerPromoCommands(program);
registerRefundCommands(program);
registerWebhookCommands(program);
registerCaseCommands(program);
registerClaimCommands(program);
registerDisruptionCommands(program);
// After company and promo: it adds set-commission to their `company` and `agent` commands.
registerCommissionCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  if (process.argv.includes('--json')) console.error(printableJson({ error: message }, 0));
  else console.error(printableLine(`error: ${message}`));
  process.exit(1);
});
