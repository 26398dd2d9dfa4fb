import type { EntityManager } from '@mikro-orm/postgresql';
import { PromoCode } from './entities/promo-code';
import { DEMO_AGENTS, DEMO_PARTNERS } from '../partners';

const HIMALAYAN_SALES = DEMO_PARTNERS[2].companyId;
const SUMMIT_SALES = DEMO_PARTNERS[3].companyId;

/**
 * Demo promo codes, one per case a partner wants to try: company codes of two different sales
 * companies, agent codes of two agents, and one expired, one inactive, one with a single use. They
 * belong to the demo partners (partners' `demo-partners.ts`) and are seeded and ended with them by
 * the composition (`src/seed.ts`, `src/demo-data.ts`); promos writes them, as it owns the table
 * (decision record 0111).
 */
export const DEMO_PROMO_CODES: ReadonlyArray<{
  code: string;
  ownerCompanyId?: string;
  ownerAgentId?: string;
  percent?: string;
  amount?: number;
  validFrom?: string;
  validTo?: string;
  active?: boolean;
  usageLimit?: number;
  note: string;
}> = [
  {
    code: 'HIMALAYA10',
    ownerCompanyId: HIMALAYAN_SALES,
    percent: '10.00',
    note: 'company code of Himalayan Cover Sales, 10 %',
  },
  {
    code: 'SUMMIT500',
    ownerCompanyId: SUMMIT_SALES,
    amount: 50_000,
    note: 'company code of Summit Sales Nepal, 500.00 off',
  },
  {
    code: 'PEMBA5',
    ownerAgentId: DEMO_AGENTS[0].agentId,
    percent: '5.00',
    note: 'agent code of Pemba Sherpa (Himalayan Cover Sales), 5 %',
  },
  {
    code: 'ANITA300',
    ownerAgentId: DEMO_AGENTS[1].agentId,
    amount: 30_000,
    note: 'agent code of Anita Gurung (Summit Sales Nepal), 300.00 off',
  },
  {
    code: 'EXPIRED20',
    ownerCompanyId: HIMALAYAN_SALES,
    percent: '20.00',
    validFrom: '2025-01-01',
    validTo: '2025-12-31',
    note: 'expired on 2025-12-31: always rejected',
  },
  {
    code: 'INACTIVE15',
    ownerAgentId: DEMO_AGENTS[0].agentId,
    percent: '15.00',
    active: false,
    note: 'inactive: always rejected',
  },
  {
    code: 'ONCE25',
    ownerCompanyId: SUMMIT_SALES,
    percent: '25.00',
    usageLimit: 1,
    note: 'usage limit 1: the first order to take it wins, removal frees it',
  },
];

/** Creates the demo codes missing, once their owners (the demo companies and agents) exist: in the seed's transaction. */
export async function seedDemoPromoCodes(em: EntityManager): Promise<void> {
  await em.transactional(async (tx) => {
    // Codes are created once and then left alone: their use counts are live sandbox state.
    const existing = new Set(
      (await tx.find(PromoCode, { code: { $in: DEMO_PROMO_CODES.map((code) => code.code) } })).map((code) => code.code),
    );
    for (const code of DEMO_PROMO_CODES) {
      if (existing.has(code.code)) continue;
      tx.create(PromoCode, {
        code: code.code,
        ownerCompany: code.ownerCompanyId,
        ownerAgent: code.ownerAgentId,
        discountPercent: code.percent,
        discountAmount: code.amount,
        validFrom: code.validFrom,
        validTo: code.validTo,
        active: code.active ?? true,
        usageLimit: code.usageLimit,
      });
    }
  });
}

/** Active codes owned by a demo company or agent: the seeded ones and any an operator added to them. */
function activeDemoCodes(em: EntityManager): Promise<PromoCode[]> {
  return em.find(
    PromoCode,
    {
      active: true,
      $or: [
        { ownerCompany: { $in: DEMO_PARTNERS.map((partner) => partner.companyId) } },
        { ownerAgent: { $in: DEMO_AGENTS.map((agent) => agent.agentId) } },
      ],
    },
    { orderBy: { code: 'asc' } },
  );
}

/** The demo partners' codes still active, by code (they are printed in docs/operations.md: anyone could take them). */
export async function activeDemoPromoCodes(em: EntityManager): Promise<string[]> {
  return (await activeDemoCodes(em)).map((code) => code.code);
}

/** Deactivates the demo partners' active codes, in the caller's transaction; returns the codes it ended. */
export async function deactivateDemoPromoCodes(em: EntityManager): Promise<string[]> {
  const codes = await activeDemoCodes(em);
  for (const code of codes) code.active = false;
  return codes.map((code) => code.code);
}
