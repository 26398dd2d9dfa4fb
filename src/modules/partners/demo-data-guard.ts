import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO_AGENTS, DEMO_PARTNERS } from './demo-partners';
import { markCredentialRevoked, verifySecret } from '../auth';
import { Company } from './entities/company';
import { Credential } from '../auth/entities/credential';
import { PromoCode } from '../promos/entities/promo-code';
import { SalesAgent } from './entities/sales-agent';
import { StartupRefusal } from '../../kernel/startup-refusal';

/** The operator command that ends every piece of demo data at once (src/cli/demo-command.ts). */
export const DEMO_DEACTIVATE_COMMAND = 'npm run ops -- demo deactivate';

/**
 * The demo data still active in a database: the demo partners' credentials whose published secret
 * still gets a token, the demo companies, their agents, and the promo codes those companies and
 * agents own (HIMALAYA10, ONCE25, PEMBA5 ... are printed in docs/operations.md: anyone could take them).
 */
export interface ActiveDemoData {
  credentials: string[];
  companies: string[];
  agents: string[];
  promoCodes: string[];
}

const DEMO_COMPANY_IDS = DEMO_PARTNERS.map((partner) => partner.companyId);
const DEMO_AGENT_IDS = DEMO_AGENTS.map((agent) => agent.agentId);

/** The demo partners' clientIds whose published secret still gets a token in this database. */
export async function activeDemoCredentials(em: EntityManager): Promise<string[]> {
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

/** Active codes owned by a demo company or agent: the seeded ones and any an operator added to them. */
function activeDemoCodes(em: EntityManager): Promise<PromoCode[]> {
  return em.find(
    PromoCode,
    { active: true, $or: [{ ownerCompany: { $in: DEMO_COMPANY_IDS } }, { ownerAgent: { $in: DEMO_AGENT_IDS } }] },
    { orderBy: { code: 'asc' } },
  );
}

export async function activeDemoData(em: EntityManager): Promise<ActiveDemoData> {
  return {
    credentials: await activeDemoCredentials(em),
    companies: (await activeDemoCompanies(em)).map((company) => company.name),
    agents: (await activeDemoAgents(em)).map((agent) => agent.name),
    promoCodes: (await activeDemoCodes(em)).map((code) => code.code),
  };
}

/**
 * Revokes the demo credentials (and their open tokens) and deactivates the demo companies, agents
 * and codes, in one transaction; the database's triggers tell every server's bearer check cache.
 * Returns what it ended; nothing when there was nothing active.
 */
export async function deactivateDemoData(em: EntityManager): Promise<ActiveDemoData> {
  return em.transactional(async (tx) => {
    const ended = await activeDemoData(tx);
    const revokedAt = new Date();
    for (const credential of await tx.find(Credential, { clientId: { $in: ended.credentials } }))
      await markCredentialRevoked(tx, credential, revokedAt);
    for (const entity of [
      ...(await activeDemoCompanies(tx)),
      ...(await activeDemoAgents(tx)),
      ...(await activeDemoCodes(tx)),
    ])
      entity.active = false;
    return ended;
  });
}

const isEmpty = (data: ActiveDemoData) => Object.values(data).every((names: string[]) => names.length === 0);

/** The active demo data in words, e.g. `credentials demo-everest-trails; promo codes HIMALAYA10, PEMBA5`. */
export function describeDemoData(data: ActiveDemoData): string {
  const kinds: Array<[string, string[]]> = [
    ['credentials', data.credentials],
    ['companies', data.companies],
    ['agents', data.agents],
    ['promo codes', data.promoCodes],
  ];
  return kinds
    .filter(([, names]) => names.length > 0)
    .map(([kind, names]) => `${kind} ${names.join(', ')}`)
    .join('; ');
}

/**
 * Production refuses to serve while anything of the demo set works: a credential anyone could take
 * a token with, or a promo code printed in docs/operations.md that a real partner's order would take.
 */
export async function refuseActiveDemoData(em: EntityManager): Promise<void> {
  const active = await activeDemoData(em);
  if (isEmpty(active)) return;
  throw new StartupRefusal(
    `Refusing to start in production: demo data with published credentials and promo codes is active in this database ` +
      `(${describeDemoData(active)}); deactivate it all with \`${DEMO_DEACTIVATE_COMMAND}\``,
  );
}
