import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { Company } from './entities/company';
import { SalesAgent } from './entities/sales-agent';

/** 0 to 100 with at most two decimals, as the columns keep it; anything else is refused as typed. */
export function commissionPercentProblem(percent: string): string | undefined {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(percent) || Number(percent) > 100)
    return `a commission percent is a number from 0 to 100 with at most two decimals (got "${percent}")`;
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PercentChange {
  id: string;
  name: string;
  previousPercent: string;
  commissionPercent: string;
}

/**
 * `ops company set-commission`: the company's percent from now on. Orders already paid keep the
 * percent their commission lines were written with; only orders paid afterwards use the new one.
 */
export async function setCompanyCommission(em: EntityManager, id: string, percent: string): Promise<PercentChange> {
  const problem = commissionPercentProblem(percent);
  if (problem) throw new OperatorRefusal(problem);
  return em.transactional(async (tx) => {
    const company = UUID.test(id) ? await tx.findOne(Company, id, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!company) throw new OperatorRefusal(`no company ${id}`);
    const previousPercent = company.commissionPercent;
    company.commissionPercent = Number(percent).toFixed(2);
    return { id, name: company.name, previousPercent, commissionPercent: company.commissionPercent };
  });
}

/** `ops agent set-commission`: the agent's percent from now on (on its sales company's statement), for orders paid afterwards. */
export async function setAgentCommission(em: EntityManager, id: string, percent: string): Promise<PercentChange> {
  const problem = commissionPercentProblem(percent);
  if (problem) throw new OperatorRefusal(problem);
  return em.transactional(async (tx) => {
    const agent = UUID.test(id) ? await tx.findOne(SalesAgent, id, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!agent) throw new OperatorRefusal(`no sales agent ${id}`);
    const previousPercent = agent.commissionPercent;
    agent.commissionPercent = Number(percent).toFixed(2);
    return { id, name: agent.name, previousPercent, commissionPercent: agent.commissionPercent };
  });
}
