import { Command } from 'commander';
import { registerCompanyCommands } from './company-commands';
import { registerDemoCommand } from './demo-command';
import { registerDocumentCommands } from './document-commands';
import { registerPaymentCommands } from './payment-commands';
import { registerPromoCommands } from './promo-commands';

const program = new Command();
program.name('ops').description('Operator command line of the Partner Booking and Payment Service').showHelpAfterError();
registerCompanyCommands(program);
registerDemoCommand(program);
registerDocumentCommands(program);
registerPaymentCommands(program);
registerPromoCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
