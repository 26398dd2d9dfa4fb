import type { EntityManager } from '@mikro-orm/postgresql';
import { Company, CompanyType } from './entities/company';
import { SalesAgent } from './entities/sales-agent';
import { Credential } from '../auth/entities/credential';
import { createCredential, hashChosenSecret, markCredentialRevoked, verifySecret } from '../auth';

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

/** Sales agents of the two demo sales companies, owners of the agent demo codes (promos' `demo-promo-codes.ts`). */
export const DEMO_AGENTS = [
  { agentId: '9f5d7a6e-1b8c-4dae-8fd0-4b5c6d7e8f90', companyId: HIMALAYAN_SALES, name: 'Pemba Sherpa' },
  { agentId: 'a06e8b7f-2c9d-4ebf-90e1-5c6d7e8f9a01', companyId: SUMMIT_SALES, name: 'Anita Gurung' },
] as const;

/** Creates the demo companies, their credentials and agents missing: in the seed's transaction (src/seed.ts). */
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
  });
}

/**
 * The demo partners still active in a database: the credentials whose published secret still gets
 * a token, the demo companies and their agents (decision record 0050).
 */
export interface ActiveDemoPartners {
  credentials: string[];
  companies: string[];
  agents: string[];
}

const DEMO_COMPANY_IDS = DEMO_PARTNERS.map((partner) => partner.companyId);
const DEMO_AGENT_IDS = DEMO_AGENTS.map((agent) => agent.agentId);

/** The demo partners' clientIds whose published secret still gets a token in this database. */
async function activeDemoCredentials(em: EntityManager): Promise<string[]> {
  const credentials = await em.find(
    Credential,
    { clientId: { $in: DEMO_PARTNERS.map((partner) => partner.clientId) }, revokedAt: null },
    { populate: ['secretHash'], orderBy: { clientId: 'asc' } },
  );
  const active: string[] = [];
  for (const credential of credentials) {
    const published = DEMO_PARTNERS.find((partner) => partner.clientId === credential.clientId)?.clientSecret;
    if (published !== undefined && (await verifySecret(published, credential.secretHash)))
      active.push(credential.clientId);
  }
  return active;
}

function activeDemoCompanies(em: EntityManager): Promise<Company[]> {
  return em.find(Company, { id: { $in: DEMO_COMPANY_IDS }, active: true }, { orderBy: { name: 'asc' } });
}

function activeDemoAgents(em: EntityManager): Promise<SalesAgent[]> {
  return em.find(SalesAgent, { id: { $in: DEMO_AGENT_IDS }, active: true }, { orderBy: { name: 'asc' } });
}

export async function activeDemoPartners(em: EntityManager): Promise<ActiveDemoPartners> {
  return {
    credentials: await activeDemoCredentials(em),
    companies: (await activeDemoCompanies(em)).map((company) => company.name),
    agents: (await activeDemoAgents(em)).map((agent) => agent.name),
  };
}

/**
 * Revokes the demo credentials (and their open tokens) and deactivates the demo companies and
 * agents, in the caller's transaction; the database's triggers tell every server's bearer check
 * cache. Returns what it ended.
 */
export async function deactivateDemoPartners(em: EntityManager): Promise<ActiveDemoPartners> {
  const ended = await activeDemoPartners(em);
  const revokedAt = new Date();
  for (const credential of await em.find(Credential, { clientId: { $in: ended.credentials } }))
    await markCredentialRevoked(em, credential, revokedAt);
  for (const entity of [...(await activeDemoCompanies(em)), ...(await activeDemoAgents(em))]) entity.active = false;
  return ended;
}
