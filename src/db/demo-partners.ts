import type { EntityManager } from '@mikro-orm/postgresql';
import { Company, CompanyType } from '../entities/company';
import { Credential } from '../entities/credential';
import { hashSecret } from '../domain/credential-secret';

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
] as const;

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
      tx.create(Credential, { clientId: partner.clientId, secretHash: await hashSecret(partner.clientSecret), company });
    }
  });
}
