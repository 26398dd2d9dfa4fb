import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizePromoCode } from './rules/promo-slots';
import type { PromoDefinition } from './rules/promo-definition';
import { Company, CompanyType } from '../partners/entities/company';
import { PromoCode } from './entities/promo-code';
import { SalesAgent } from '../partners/entities/sales-agent';
import { OperatorRefusal } from '../../kernel/operator-refusal';

/**
 * The operator's promo-code and sales-agent writes (the API only reads and applies codes). The
 * rules of who may own a code live here, whoever calls.
 */

const OWNERS = ['ownerCompany', 'ownerAgent'] as const;

export async function createSalesAgent(em: EntityManager, companyId: string, name: string): Promise<SalesAgent> {
  const company = await salesCompany(em, companyId);
  const entity = em.create(SalesAgent, { company, name });
  await em.flush();
  return entity;
}

/** The agent's codes are refused from now on (a code's owner must be active); orders that carry one keep it. */
export async function deactivateSalesAgent(em: EntityManager, id: string): Promise<SalesAgent> {
  const entity = await agent(em, id);
  entity.active = false;
  await em.flush();
  return entity;
}

export async function createPromoCode(em: EntityManager, definition: PromoDefinition): Promise<PromoCode> {
  const owner =
    definition.owner.kind === 'COMPANY'
      ? { ownerCompany: await salesCompany(em, definition.owner.id) }
      : { ownerAgent: await agent(em, definition.owner.id) };
  const entity = em.create(PromoCode, {
    code: definition.code,
    ...owner,
    ...('percent' in definition.discount
      ? { discountPercent: definition.discount.percent }
      : { discountAmount: definition.discount.amount }),
    validFrom: definition.validFrom ?? undefined,
    validTo: definition.validTo ?? undefined,
    usageLimit: definition.usageLimit ?? undefined,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException)
      throw new OperatorRefusal(`promo code ${definition.code} already exists`);
    throw error;
  }
  return entity;
}

/** Orders that already carry the code keep it; new applications are refused. */
export async function deactivatePromoCode(em: EntityManager, code: string): Promise<PromoCode> {
  const entity = await em.findOne(PromoCode, { code: normalizePromoCode(code) }, { populate: OWNERS });
  if (!entity) throw new OperatorRefusal(`no promo code ${code}`);
  entity.active = false;
  await em.flush();
  return entity;
}

export function listPromoCodes(em: EntityManager): Promise<PromoCode[]> {
  return em.find(PromoCode, {}, { populate: OWNERS, orderBy: { code: 'asc' } });
}

async function findCompany(em: EntityManager, id: string): Promise<Company> {
  // A malformed id is "no such company", not a database error.
  const company = await em.findOne(Company, { id }).catch(() => null);
  if (!company) throw new OperatorRefusal(`no company ${id}`);
  return company;
}

async function salesCompany(em: EntityManager, id: string): Promise<Company> {
  const company = await findCompany(em, id);
  if (company.type !== CompanyType.SalesCompany)
    throw new OperatorRefusal(`company ${company.id} is not a SALES_COMPANY`);
  return company;
}

async function agent(em: EntityManager, id: string): Promise<SalesAgent> {
  const found = await em.findOne(SalesAgent, { id }).catch(() => null);
  if (!found) throw new OperatorRefusal(`no agent ${id}`);
  return found;
}
