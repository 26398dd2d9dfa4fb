import type { Schemas } from '../../kernel/http/wire';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Quote, QuoteStatus } from './entities/quote';
import { insertBatched, type BatchableInsert } from '../../kernel/db/batched-insert';
import { decimalStringFromMinor } from '../../kernel/money';
import { recommendPackage } from './rules/package-eligibility';
import { pricePackage } from './rules/pricing';
import { quoteRequestErrors, tripWindow } from './rules/quote-request';
import { invalid, notFound } from '../../kernel/errors';
import type { Catalogue, CtgView, RouteView } from './catalogue';
import type { Principal } from '../../kernel/http/request-scope';
import { present } from '../../kernel/narrow';
import { businessNow } from '../../kernel/business-today';

type QuoteInput = Schemas['QuoteRequest'];

export interface QuoteSettings {
  currency: string;
  quoteTtlDays: number;
}

/** The stored quote's own fields, as the caller gets them back. */
export type StoredQuote = Pick<
  Quote,
  | 'id'
  | 'status'
  | 'nationality'
  | 'age'
  | 'maxAltitude'
  | 'startDate'
  | 'endDate'
  | 'durationDays'
  | 'currency'
  | 'ctgPriceForDuration'
  | 'totalAmount'
  | 'includedDevices'
  | 'coverage'
  | 'createdAt'
  | 'expiresAt'
>;

export interface PricedQuote {
  quote: StoredQuote;
  ctg: CtgView;
  route: RouteView | null;
}

/** Prices a trip for one traveller, recommends a package and keeps the quote for the order. */
export async function createQuote(
  em: EntityManager,
  catalogue: Catalogue,
  principal: Principal,
  input: QuoteInput,
  settings: QuoteSettings,
): Promise<PricedQuote> {
  const errors = quoteRequestErrors(input);
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);

  const snapshot = await catalogue.current();
  const route = input.routeId === undefined ? null : snapshot.routeById.get(input.routeId);
  if (route === undefined || (route && !route.active)) throw notFound(`Route ${input.routeId} not found`);

  // quoteRequestErrors has made sure there is a route or an altitude.
  const altitude = route ? route.maxAltitude : (input.maxAltitude ?? 0);
  const age = present(input.ages[0], 'the one age the QuoteRequest schema requires');
  const ctg = recommendPackage(snapshot.ctgs, { altitude, age, routeId: route?.id ?? null });
  if (!ctg) {
    throw invalid('No package covers this trip', {
      ages: `no active package covers a traveller aged ${age} at ${altitude} m`,
    });
  }

  const window = tripWindow(input);
  const price = pricePackage(ctg, window.durationDays);
  const quote: StoredQuote = {
    id: randomUUID(),
    status: QuoteStatus.Active,
    nationality: input.nationality.trim(),
    age,
    maxAltitude: altitude,
    ...window,
    currency: settings.currency,
    ctgPriceForDuration: price.ctgPriceForDuration,
    totalAmount: price.totalAmount,
    includedDevices: price.includedDevices,
    coverage: ctg.coverage,
    createdAt: new Date(),
    // Valid for the TTL as the caller's clock counts (a sandbox test clock moves it along).
    expiresAt: new Date(businessNow().getTime() + settings.quoteTtlDays * 86_400_000),
  };
  await insertBatched(em, INSERT_QUOTE, [
    quote.id,
    principal.companyId,
    ctg.id,
    route?.id ?? null,
    quote.nationality,
    quote.age,
    quote.maxAltitude,
    quote.startDate,
    quote.endDate,
    quote.durationDays,
    quote.currency,
    decimalStringFromMinor(quote.ctgPriceForDuration),
    decimalStringFromMinor(quote.totalAmount),
    JSON.stringify(quote.includedDevices),
    JSON.stringify(quote.coverage),
    quote.status,
    quote.createdAt,
    quote.expiresAt,
  ]);
  return { quote, ctg, route };
}

const QUOTE_COLUMNS = `id, company_id, ctg_id, route_id, nationality, age, max_altitude, start_date, end_date,
  duration_days, currency, ctg_price_for_duration, total_amount, included_devices, coverage, status, created_at, expires_at`;

/**
 * The quote is the only write: one INSERT, atomic on its own, prepared once per connection. A
 * managed entity and a flush (BEGIN, INSERT, COMMIT, change sets, entity instances for the
 * references) and then the ORM's per-call SQL formatting were the largest costs on the quote's
 * hot path (BENCHMARKS.md). Quotes asked for at the same moment share one multi-row INSERT (and
 * one commit); each answer still waits for its row's commit (db/batched-insert).
 * test/catalogue/reference.test.ts reads every stored column back.
 */
const INSERT_QUOTE: BatchableInsert = {
  single: {
    name: 'insert-quote',
    text: `insert into quote (${QUOTE_COLUMNS})
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
  },
  many: {
    name: 'insert-quotes',
    text: `insert into quote (${QUOTE_COLUMNS})
           select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::int[], $7::int[], $8::date[], $9::date[],
                                $10::int[], $11::text[], $12::numeric[], $13::numeric[], $14::jsonb[], $15::jsonb[], $16::text[],
                                $17::timestamptz[], $18::timestamptz[])`,
  },
  maxRows: 100,
};
