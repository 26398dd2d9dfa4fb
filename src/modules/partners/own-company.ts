import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from './entities/company';
import { SalesAgent } from './entities/sales-agent';

/** A company as it reads itself (`GET /me`): its row and its sales agents, active ones first. */
export interface OwnCompany {
  company: Company;
  salesAgents: SalesAgent[];
}

export async function readOwnCompany(em: EntityManager, companyId: string): Promise<OwnCompany> {
  const company = await em.findOneOrFail(Company, companyId);
  const salesAgents = await em.find(SalesAgent, { company: companyId }, { orderBy: { active: 'desc', name: 'asc' } });
  return { company, salesAgents };
}
