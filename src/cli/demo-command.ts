import type { Command } from 'commander';
import { DEMO_PARTNERS } from '../modules/partners';
import { operatorCommand, output, type CliOptions } from './context';

export function registerDemoCommand(program: Command): void {
  operatorCommand(program, 'demo', 'print the sandbox demo companies and their credentials')
    .action((options: CliOptions) => {
      const partners = DEMO_PARTNERS.map(({ companyId, name, type, commissionPercent, clientId, clientSecret }) => ({
        companyId, name, type, commissionPercent, clientId, clientSecret,
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
    });
}
