import type { Command } from 'commander';
import { Company, CompanyType } from '../modules/partners/entities/company';
import { createCompany, deactivateCompany, issueCredential, revokeCredential } from '../modules/partners';
import { isOneOf } from '../kernel/narrow';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerCompanyCommands(program: Command): void {
  const company = program.command('company').description('partner companies');

  operatorCommand(company, 'create', 'create a partner company', (command) =>
    command
      .requiredOption('--name <name>', 'display name')
      .requiredOption('--type <type>', 'TRAVEL_AGENCY or SALES_COMPANY')
      .option('--commission <percent>', 'commission percent, also the ceiling of directDiscountPercent', '0'),
  ).action(async (options: CliOptions & { name: string; type: string; commission: string }) => {
    const type = options.type;
    if (!isOneOf(Object.values(CompanyType), type)) throw new Error('--type must be TRAVEL_AGENCY or SALES_COMPANY');
    const percent = Number(options.commission);
    if (!Number.isFinite(percent) || percent < 0 || percent > 100)
      throw new Error('--commission must be a number from 0 to 100');
    const created = await withDatabase((em) =>
      createCompany(em, { name: options.name, type, commissionPercent: percent }),
    );
    output(options, created, `created company ${created.id} (${created.type}) ${created.name}`);
  });

  operatorCommand(company, 'deactivate <id>', 'deactivate a company: its tokens stop working at once').action(
    async (id: string, options: CliOptions) => {
      const result = await withDatabase((em) => deactivateCompany(em, id));
      output(options, result, `deactivated company ${result.id}`);
    },
  );

  operatorCommand(company, 'list', 'list companies').action(async (options: CliOptions) => {
    const companies = await withDatabase((em) => em.find(Company, {}, { orderBy: { createdAt: 'asc' } }));
    output(
      options,
      companies,
      companies.map((c) => `${c.id}  ${c.type.padEnd(13)} ${c.active ? 'active  ' : 'inactive'} ${c.name}`),
    );
  });

  registerCredentialCommands(program);
}

function registerCredentialCommands(program: Command): void {
  const credential = program.command('credential').description('API credentials (clientId and secret)');

  operatorCommand(
    credential,
    'issue',
    'issue a credential; the secret is printed once and stored only as a hash',
    (command) => command.requiredOption('--company <id>', 'company id'),
  ).action(async (options: CliOptions & { company: string }) => {
    const issued = await withDatabase((em) => issueCredential(em, options.company));
    output(options, issued, [
      `clientId:     ${issued.clientId}`,
      `clientSecret: ${issued.clientSecret}`,
      '(the secret is not stored and cannot be shown again)',
    ]);
  });

  operatorCommand(credential, 'revoke <clientId>', 'revoke a credential and every token issued under it').action(
    async (clientId: string, options: CliOptions) => {
      const result = await withDatabase((em) => revokeCredential(em, clientId));
      output(options, result, `revoked ${result.clientId}`);
    },
  );
}
