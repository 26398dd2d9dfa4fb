import type { Command } from 'commander';
import { DEMO_PARTNERS } from '../modules/partners';
import { deactivateDemoData, describeDemoData } from '../demo-data';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerDemoCommand(program: Command): void {
  const demo = operatorCommand(program, 'demo', 'print the sandbox demo companies and their credentials').action(
    (options: CliOptions) => {
      const partners = DEMO_PARTNERS.map(({ companyId, name, type, commissionPercent, clientId, clientSecret }) => ({
        companyId,
        name,
        type,
        commissionPercent,
        clientId,
        clientSecret,
      }));
      output(
        options,
        partners,
        partners.flatMap((p, i) => [
          ...(i > 0 ? [''] : []),
          `${p.name} (${p.type}, commission ${p.commissionPercent}%)`,
          `  companyId    ${p.companyId}`,
          `  clientId     ${p.clientId}`,
          `  clientSecret ${p.clientSecret}`,
        ]),
      );
    },
  );

  operatorCommand(
    demo,
    'deactivate',
    'end the demo data in this database: revoke the demo credentials, deactivate the demo companies, agents and promo codes',
  ).action(async (options: CliOptions) => {
    const ended = await withDatabase(deactivateDemoData);
    const described = describeDemoData(ended);
    // `demo` has a --json of its own, which takes the flag when it follows `deactivate` too.
    const json = options.json === true || demo.opts<CliOptions>().json === true;
    output({ json }, ended, described === '' ? 'no demo data was active' : `deactivated ${described}`);
  });
}
