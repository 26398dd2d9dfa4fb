import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizePromoCode } from './rules/promo-slots';
import type { PromoDefinition } from './rules/promo-definition';
import { PromoCode } from './entities/promo-code';
import { findSalesAgent, findSalesCompany } from '../partners';
import { OperatorRefusal } from '../../kernel/operator-refusal';

/**
 * The operator's promo-code writes (the API only reads and applies codes). The
 * rules of who may own a code live here, whoever calls.
 */

const OWNERS = ['ownerCompany', 'ownerAgent'] as const;

export async function createPromoCode(em: EntityManager, definition: PromoDefinition): Promise<PromoCode> {
  const owner =
    definition.owner.kind === 'COMPANY'
      ? { ownerCompany: await findSalesCompany(em, definition.owner.id) }
      : { ownerAgent: await findSalesAgent(em, definition.owner.id) };
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
