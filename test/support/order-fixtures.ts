import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { Order } from '../../src/modules/orders/entities/order';
import { OrderGroup } from '../../src/modules/orders/entities/order-group';
import { Quote } from '../../src/modules/catalogue/entities/quote';
import type { RunningServer } from '../../src/server';
import { ROUTES } from './catalogue-fixtures';
import type { ApiClient, WireJson } from './http-client';
import type { TestPartner } from './partners';

export const ORDERS = '/api/external/v1/orders';
export const QUOTE = '/api/external/v1/reference/quote';

/** A departure a month ahead, so no test meets "departure in the past" by accident. */
export const departure = addDays(kathmanduToday(), 30);

/** A 16-day Everest Base Camp quote for a 34-year-old: special-route package, 19,600.00 in total. */
export async function everestQuote(client: ApiClient, partner: TestPartner, startDate = departure): Promise<WireJson> {
  const response = await client.op(
    'createQuote',
    'POST',
    QUOTE,
    { nationality: 'Germany', ages: [34], startDate, duration: 16, routeId: ROUTES.everestBaseCamp },
    { token: partner.token },
  );
  if (response.status !== 200) throw new Error(`quote failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** The order body that matches a quote. */
export function orderFromQuote(
  quote: WireJson,
  touristId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    touristId,
    ctgId: quote.ctgId,
    routeId: quote.routeId,
    departureDate: quote.startDate,
    quoteId: quote.quoteId,
    ...extra,
  };
}

/** What a rejected request must not have left behind: orders, groups, consumed quotes. */
export async function writtenState(server: RunningServer, companyId: string, quoteIds: string[] = []) {
  const em = server.orm.em.fork();
  return {
    orders: await em.count(Order, { company: companyId }),
    groups: await em.count(OrderGroup, { company: companyId }),
    quoteStatuses: (await em.find(Quote, { id: { $in: quoteIds } }, { orderBy: { id: 'asc' } })).map(
      (quote) => quote.status,
    ),
  };
}
