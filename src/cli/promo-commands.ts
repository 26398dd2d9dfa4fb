import type { Command } from 'commander';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { amountFromMinor } from '../domain/money';
import { normalizePromoCode } from '../domain/promo-slots';
import { parsePromoDefinition, type PromoDefinition, type PromoDefinitionInput } from '../domain/promo-definition';
import { Company, CompanyType } from '../entities/company';
import { PromoCode } from '../entities/promo-code';
import { SalesAgent } from '../entities/sales-agent';
import { output, withDatabase, type CliOptions } from './context';

export function registerPromoCommands(program: Command): void {
  const agent = program.command('agent').description('sales agents (owners of agent promo codes)');

  agent
    .command('create')
    .description('create a sales agent of a sales company')
    .requiredOption('--company <id>', 'the sales company the agent sells for')
    .requiredOption('--name <name>', 'display name')
    .option('--json', 'print JSON')
    .action(async (options: CliOptions & { company: string; name: string }) => {
      if (options.name.trim() === '') throw new Error('--name must not be blank');
      const created = await withDatabase(async (em) => {
        const company = await findCompany(em, options.company);
        if (company.type !== CompanyType.SalesCompany) throw new Error(`company ${company.id} is not a SALES_COMPANY`);
        const entity = em.create(SalesAgent, { company, name: options.name.trim() });
        await em.flush();
        return { id: entity.id, name: entity.name, companyId: company.id };
      });
      output(options, created, `created agent ${created.id} ${created.name} of company ${created.companyId}`);
    });

  const promo = program.command('promo').description('promo codes');

  promo
    .command('create')
    .description('create a promo code: one owner (company or agent), one discount (percent or amount)')
    .requiredOption('--code <code>', 'the code; case-insensitive, stored upper-case')
    .option('--owner-company <id>', 'sales company that owns a company code')
    .option('--owner-agent <id>', 'sales agent that owns an agent code')
    .option('--percent <percent>', 'percentage off package plus included devices')
    .option('--amount <amount>', 'fixed amount off, in the order currency')
    .option('--valid-from <date>', 'first Kathmandu date the code works, YYYY-MM-DD')
    .option('--valid-to <date>', 'last Kathmandu date the code works, YYYY-MM-DD')
    .option('--limit <n>', 'how many orders may carry the code')
    .option('--json', 'print JSON')
    .action(async (options: CliOptions & PromoDefinitionInput) => {
      const parsed = parsePromoDefinition(options);
      if (!parsed.ok) throw new Error(parsed.problems.join('; '));
      const created = await withDatabase((em) => createPromoCode(em, parsed.value));
      output(options, promoView(created), `created ${describe(created)}`);
    });

  promo
    .command('deactivate <code>')
    .description('deactivate a code: it is refused from now on; orders that carry it keep it')
    .option('--json', 'print JSON')
    .action(async (code: string, options: CliOptions) => {
      const result = await withDatabase(async (em) => {
        const entity = await em.findOne(PromoCode, { code: normalizePromoCode(code) }, { populate: ['ownerCompany', 'ownerAgent'] });
        if (!entity) throw new Error(`no promo code ${code}`);
        entity.active = false;
        await em.flush();
        return entity;
      });
      output(options, promoView(result), `deactivated ${result.code}`);
    });

  promo
    .command('list')
    .description('list promo codes with their owners and use counts')
    .option('--json', 'print JSON')
    .action(async (options: CliOptions) => {
      const codes = await withDatabase((em) => em.find(PromoCode, {}, { populate: ['ownerCompany', 'ownerAgent'], orderBy: { code: 'asc' } }));
      output(options, codes.map(promoView), codes.length === 0 ? 'no promo codes' : codes.map(describe));
    });
}

async function findCompany(em: EntityManager, id: string): Promise<Company> {
  const company = await em.findOne(Company, { id }).catch(() => null);
  if (!company) throw new Error(`no company ${id}`);
  return company;
}

async function salesCompany(em: EntityManager, id: string): Promise<Company> {
  const company = await findCompany(em, id);
  if (company.type !== CompanyType.SalesCompany) throw new Error(`company ${id} is not a SALES_COMPANY`);
  return company;
}

async function agent(em: EntityManager, id: string): Promise<SalesAgent> {
  const found = await em.findOne(SalesAgent, { id }).catch(() => null);
  if (!found) throw new Error(`no agent ${id}`);
  return found;
}

export async function createPromoCode(em: EntityManager, definition: PromoDefinition): Promise<PromoCode> {
  const owner = definition.owner.kind === 'COMPANY' ? { ownerCompany: await salesCompany(em, definition.owner.id) } : { ownerAgent: await agent(em, definition.owner.id) };
  const entity = em.create(PromoCode, {
    code: definition.code,
    ...owner,
    ...('percent' in definition.discount ? { discountPercent: definition.discount.percent } : { discountAmount: definition.discount.amount }),
    validFrom: definition.validFrom ?? undefined,
    validTo: definition.validTo ?? undefined,
    usageLimit: definition.usageLimit ?? undefined,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new Error(`promo code ${definition.code} already exists`);
    throw error;
  }
  return entity;
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
