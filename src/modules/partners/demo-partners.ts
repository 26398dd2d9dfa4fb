import type { EntityManager } from '@mikro-orm/postgresql';
import { Company, CompanyType } from './entities/company';
import { PromoCode } from '../promos/entities/promo-code';
import { SalesAgent } from './entities/sales-agent';
import { createCredential, hashChosenSecret } from '../auth';

/**
 * Sandbox partners that exist from the first start of the embedded default, so that a newcomer
 * can take a token at once. Their secrets are public (README, docs): never seeded in production.
 */
export const DEMO_PARTNERS = [
  {
    companyId: '5b1f3c2a-7d4e-4f6a-8b9c-0d1e2f3a4b5c',
    name: 'Everest Trails Travel Pvt. Ltd.',
    type: CompanyType.TravelAgency,
    commissionPercent: '8.00',
    clientId: 'demo-everest-trails',
    clientSecret: 'sandbox-secret-everest-trails',
  },
  {
    companyId: '6c2a4d3b-8e5f-4a7b-9cad-1e2f3a4b5c6d',
    name: 'Annapurna Adventure Tours',
    type: CompanyType.TravelAgency,
    commissionPercent: '7.50',
    clientId: 'demo-annapurna-adventure',
    clientSecret: 'sandbox-secret-annapurna-adventure',
  },
  {
    companyId: '7d3b5e4c-9f6a-4b8c-8dbe-2f3a4b5c6d7e',
    name: 'Himalayan Cover Sales Pvt. Ltd.',
    type: CompanyType.SalesCompany,
    commissionPercent: '12.00',
    clientId: 'demo-himalayan-sales',
    clientSecret: 'sandbox-secret-himalayan-sales',
  },
  {
    companyId: '8e4c6f5d-0a7b-4c9d-9ecf-3a4b5c6d7e8f',
    name: 'Summit Sales Nepal Pvt. Ltd.',
    type: CompanyType.SalesCompany,
    commissionPercent: '10.00',
    clientId: 'demo-summit-sales',
    clientSecret: 'sandbox-secret-summit-sales',
  },
] as const;

const HIMALAYAN_SALES = DEMO_PARTNERS[2].companyId;
const SUMMIT_SALES = DEMO_PARTNERS[3].companyId;

/** Sales agents of the two demo sales companies, owners of the agent demo codes. */
export const DEMO_AGENTS = [
  { agentId: '9f5d7a6e-1b8c-4dae-8fd0-4b5c6d7e8f90', companyId: HIMALAYAN_SALES, name: 'Pemba Sherpa' },
  { agentId: 'a06e8b7f-2c9d-4ebf-90e1-5c6d7e8f9a01', companyId: SUMMIT_SALES, name: 'Anita Gurung' },
] as const;

/**
 * Demo promo codes, one per case a partner wants to try: company codes of two different sales
 * companies, agent codes of two agents, and one expired, one inactive, one with a single use.
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

export async function seedDemoPartners(em: EntityManager): Promise<void> {
  await em.transactional(async (tx) => {
    for (const partner of DEMO_PARTNERS) {
      if (await tx.findOne(Company, partner.companyId)) continue;
      const company = tx.create(Company, {
        id: partner.companyId,
        name: partner.name,
        type: partner.type,
        commissionPercent: partner.commissionPercent,
      });
      createCredential(tx, {
        clientId: partner.clientId,
        secretHash: await hashChosenSecret(partner.clientSecret),
        company,
      });
    }
    for (const agent of DEMO_AGENTS) {
      if (await tx.findOne(SalesAgent, agent.agentId)) continue;
      tx.create(SalesAgent, { id: agent.agentId, company: agent.companyId, name: agent.name });
    }
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
