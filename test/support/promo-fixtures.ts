import { randomBytes } from 'node:crypto';
import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { PromoCode } from '../../src/modules/promos/entities/promo-code';
import { SalesAgent } from '../../src/modules/partners/entities/sales-agent';
import type { Orm } from '../../src/kernel/db/orm';
import { CTGS } from './catalogue-fixtures';
import type { ApiClient, WireJson } from './http-client';
import { departure, ORDERS } from './order-fixtures';
import { newPartner, type TestPartner } from './partners';
import { newTraveller } from './traveller-fixtures';
import type { RunningServer } from '../../src/server';

export const orderPromoPath = (orderRef: string) => `${ORDERS}/${encodeURIComponent(orderRef)}/promo`;
export const groupPromoPath = (groupRef: string) => `${ORDERS}/groups/${encodeURIComponent(groupRef)}/promo`;

export interface PromoOwner {
  kind: 'COMPANY' | 'AGENT';
  id: string;
  name: string;
}

/** A sales company that owns company codes (it needs no credential to own codes). */
export async function newSalesCompany(
  server: { orm: Orm },
  name = `Summit Sales ${randomBytes(3).toString('hex')}`,
): Promise<PromoOwner> {
  const em = server.orm.em.fork();
  const company = em.create(Company, { name, type: CompanyType.SalesCompany, commissionPercent: '12.00' });
  await em.flush();
  return { kind: 'COMPANY', id: company.id, name };
}

/** A sales agent of a fresh sales company, owner of agent codes. */
export async function newAgent(
  server: { orm: Orm },
  name = `Agent ${randomBytes(3).toString('hex')}`,
): Promise<PromoOwner> {
  const company = await newSalesCompany(server);
  const em = server.orm.em.fork();
  const agent = em.create(SalesAgent, { company: company.id, name });
  await em.flush();
  return { kind: 'AGENT', id: agent.id, name };
}

export interface CodeOptions {
  percent?: number;
  amount?: number;
  validFrom?: string;
  validTo?: string;
  active?: boolean;
  usageLimit?: number;
  prefix?: string;
}

/** A promo code with a unique name; 10 % unless told otherwise. Returns the code as stored. */
export async function newCode(server: { orm: Orm }, owner: PromoOwner, options: CodeOptions = {}): Promise<string> {
  const em = server.orm.em.fork();
  const code = `${options.prefix ?? 'T'}${randomBytes(4).toString('hex')}`.toUpperCase();
  em.create(PromoCode, {
    code,
    ownerCompany: owner.kind === 'COMPANY' ? owner.id : undefined,
    ownerAgent: owner.kind === 'AGENT' ? owner.id : undefined,
    discountPercent: options.amount === undefined ? (options.percent ?? 10).toFixed(2) : undefined,
    discountAmount: options.amount === undefined ? undefined : Math.round(options.amount * 100),
    validFrom: options.validFrom,
    validTo: options.validTo,
    active: options.active ?? true,
    usageLimit: options.usageLimit,
  });
  await em.flush();
  return code;
}

export async function usedCount(server: { orm: Orm }, code: string): Promise<number> {
  const found = await server.orm.em.fork().findOneOrFail(PromoCode, { code });
  return found.usedCount;
}

/** A quote-less order on a custom route with the 3,000 m package: 4,500.00 for 7 days, no devices. */
export const lowTrek = (touristId: string, extra: Record<string, unknown> = {}) => ({
  touristId,
  ctgId: CTGS.standard3000,
  customRouteName: 'Kathmandu valley rim walk',
  departureDate: departure,
  ...extra,
});

export async function createOrder(
  client: ApiClient,
  partner: TestPartner,
  touristId: string,
  extra: Record<string, unknown> = {},
): Promise<WireJson> {
  const response = await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId, extra), { token: partner.token });
  if (response.status !== 201) throw new Error(`order failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export async function createGroup(
  client: ApiClient,
  partner: TestPartner,
  touristId: string,
  count: number,
): Promise<WireJson> {
  const body = Array.from({ length: count }, () => lowTrek(touristId));
  const response = await client.op('createOrders', 'POST', ORDERS, body, { token: partner.token });
  if (response.status !== 201) throw new Error(`group failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** The cast of a promo test: an agency with one traveller, two sales companies and two agents. */
export interface PromoParties {
  agency: TestPartner;
  touristId: string;
  companyA: PromoOwner;
  companyB: PromoOwner;
  agentX: PromoOwner;
  agentY: PromoOwner;
}

export async function promoParties(
  server: RunningServer,
  client: ApiClient,
  names: { agency?: string; companies?: [string, string]; agents?: [string, string] } = {},
): Promise<PromoParties> {
  const agency = await newPartner(server, client, names.agency ? { name: names.agency } : {});
  const touristId = await newTraveller(server, agency.companyId);
  const [companyA, companyB, agentX, agentY] = await Promise.all([
    newSalesCompany(server, names.companies?.[0]),
    newSalesCompany(server, names.companies?.[1]),
    newAgent(server, names.agents?.[0]),
    newAgent(server, names.agents?.[1]),
  ]);
  return { agency, touristId, companyA, companyB, agentX, agentY };
}
