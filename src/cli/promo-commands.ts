import type { Command } from 'commander';
import { amountFromMinor } from '../kernel/money';
import {
  parsePromoDefinition,
  type PromoDefinitionInput,
  createPromoCode,
  deactivatePromoCode,
  listPromoCodes,
} from '../modules/promos';
import { createSalesAgent, deactivateSalesAgent } from '../modules/partners';
import type { PromoCode } from '../modules/promos/entities/promo-code';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerPromoCommands(program: Command): void {
  const agent = program.command('agent').description('sales agents (owners of agent promo codes)');

  operatorCommand(agent, 'create', 'create a sales agent of a sales company', (command) =>
    command
      .requiredOption('--company <id>', 'the sales company the agent sells for')
      .requiredOption('--name <name>', 'display name'),
  ).action(async (options: CliOptions & { company: string; name: string }) => {
    if (options.name.trim() === '') throw new Error('--name must not be blank');
    const entity = await withDatabase((em) => createSalesAgent(em, options.company, options.name.trim()));
    const created = { id: entity.id, name: entity.name, companyId: entity.company.id };
    output(options, created, `created agent ${created.id} ${created.name} of company ${created.companyId}`);
  });

  operatorCommand(
    agent,
    'deactivate <id>',
    'deactivate a sales agent: their agent codes are refused from now on; orders that carry one keep it',
  ).action(async (id: string, options: CliOptions) => {
    const entity = await withDatabase((em) => deactivateSalesAgent(em, id));
    output(
      options,
      { id: entity.id, name: entity.name, active: entity.active },
      `deactivated agent ${entity.id} ${entity.name}`,
    );
  });

  const promo = program.command('promo').description('promo codes');

  operatorCommand(
    promo,
    'create',
    'create a promo code: one owner (company or agent), one discount (percent or amount)',
    (command) =>
      command
        .requiredOption('--code <code>', 'the code; case-insensitive, stored upper-case')
        .option('--owner-company <id>', 'sales company that owns a company code')
        .option('--owner-agent <id>', 'sales agent that owns an agent code')
        .option('--percent <percent>', 'percentage off package plus included devices')
        .option('--amount <amount>', 'fixed amount off, in the order currency')
        .option('--valid-from <date>', 'first Kathmandu date the code works, YYYY-MM-DD')
        .option('--valid-to <date>', 'last Kathmandu date the code works, YYYY-MM-DD')
        .option('--limit <n>', 'how many orders may carry the code'),
  ).action(async (options: CliOptions & PromoDefinitionInput) => {
    const parsed = parsePromoDefinition(options);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const created = await withDatabase((em) => createPromoCode(em, parsed.value));
    output(options, promoView(created), `created ${describe(created)}`);
  });

  operatorCommand(
    promo,
    'deactivate <code>',
    'deactivate a code: it is refused from now on; orders that carry it keep it',
  ).action(async (code: string, options: CliOptions) => {
    const result = await withDatabase((em) => deactivatePromoCode(em, code));
    output(options, promoView(result), `deactivated ${result.code}`);
  });

  operatorCommand(promo, 'list', 'list promo codes with their owners and use counts').action(
    async (options: CliOptions) => {
      const codes = await withDatabase(listPromoCodes);
      output(options, codes.map(promoView), codes.length === 0 ? 'no promo codes' : codes.map(describe));
    },
  );
}

function promoView(code: PromoCode) {
  return {
    code: code.code,
    type: code.ownerCompany ? 'COMPANY' : 'AGENT',
    ownerId: (code.ownerCompany ?? code.ownerAgent)?.id ?? null,
    ownerName: (code.ownerCompany ?? code.ownerAgent)?.name ?? null,
    discountPercent: code.discountPercent != null ? Number(code.discountPercent) : null,
    discountAmount: code.discountAmount != null ? amountFromMinor(code.discountAmount) : null,
    validFrom: code.validFrom ?? null,
    validTo: code.validTo ?? null,
    active: code.active,
    usageLimit: code.usageLimit ?? null,
    usedCount: code.usedCount,
  };
}

function describe(code: PromoCode): string {
  const view = promoView(code);
  const discount = view.discountPercent !== null ? `${view.discountPercent}%` : `${view.discountAmount} off`;
  const window = `${view.validFrom ?? '…'} to ${view.validTo ?? '…'}`;
  const uses = `${view.usedCount}/${view.usageLimit ?? '∞'} used`;
  return `${view.code.padEnd(16)} ${view.type.padEnd(7)} ${view.active ? 'active  ' : 'inactive'} ${discount.padEnd(10)} ${window.padEnd(24)} ${uses.padEnd(12)} ${view.ownerName} (${view.ownerId})`;
}
