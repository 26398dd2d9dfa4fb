/** Why a company (or an agent) earns on an order (decision record 0074). */
export type CommissionRole = 'SELLER' | 'LISTED_AGENCY' | 'CODE_OWNER' | 'AGENT';

/** A company as commission sees it: percents in basis points (12.50 % is 1250). */
export interface CommissionCompany {
  id: string;
  percentBp: number;
}

export interface CommissionAgent {
  id: string;
  /** The sales company the agent sells for: the agent's lines are on its statement. */
  companyId: string;
  percentBp: number;
}

/** Who is on an order, as far as commission goes. */
export interface OrderEarnerFacts {
  seller: CommissionCompany;
  /** The order's `directDiscountPercent` in basis points: drawn from the seller's commission. */
  directDiscountBp: number;
  /** Registered agencies listed in `travelCompanies`, in order (custom agencies are not here: they earn nothing). */
  listedAgencies: readonly CommissionCompany[];
  /** The owner of the applied company promo code, if any. */
  companyCodeOwner?: CommissionCompany;
  /** The agent of the applied agent promo code, if any. */
  codeAgent?: CommissionAgent;
}

/** One earner of an order before the cap: whose statement, which agent, why, at what percent. */
export interface Earner {
  companyId: string;
  agentId?: string;
  role: CommissionRole;
  percentBp: number;
}

/**
 * The earners of an order: the seller at its percent less the direct discount (never below 0);
 * each listed registered agency other than the seller at its own percent; the owner of an applied
 * company code when it is not the seller; the agent of an applied agent code. An earner whose
 * percent is 0 earns nothing and gets no line.
 */
export function earnersOf(facts: OrderEarnerFacts): Earner[] {
  const earners: Earner[] = [
    {
      companyId: facts.seller.id,
      role: 'SELLER',
      percentBp: Math.max(0, facts.seller.percentBp - facts.directDiscountBp),
    },
  ];
  const listed = new Set<string>();
  for (const agency of facts.listedAgencies) {
    // A company listed twice (or the seller listing itself) earns once, as what it is.
    if (agency.id === facts.seller.id || listed.has(agency.id)) continue;
    listed.add(agency.id);
    earners.push({ companyId: agency.id, role: 'LISTED_AGENCY', percentBp: agency.percentBp });
  }
  const owner = facts.companyCodeOwner;
  if (owner && owner.id !== facts.seller.id)
    earners.push({ companyId: owner.id, role: 'CODE_OWNER', percentBp: owner.percentBp });
  const agent = facts.codeAgent;
  if (agent) earners.push({ companyId: agent.companyId, agentId: agent.id, role: 'AGENT', percentBp: agent.percentBp });
  return earners.filter((earner) => earner.percentBp > 0);
}
