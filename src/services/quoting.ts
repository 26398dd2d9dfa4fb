import type { EntityManager } from '@mikro-orm/postgresql';
import { Quote } from '../entities/quote';
import { recommendPackage } from '../domain/package-eligibility';
import { pricePackage } from '../domain/pricing';
import { quoteRequestErrors, tripWindow, type TripRequest } from '../domain/quote-request';
import { badRequest, notFound } from '../http/app-error';
import type { Catalogue, CtgView, RouteView } from './catalogue';
import type { Principal } from './authentication';

export interface QuoteInput extends TripRequest {
  nationality: string;
  ages: number[];
}

export interface QuoteSettings {
  currency: string;
  quoteTtlDays: number;
}

export interface PricedQuote {
  quote: Quote;
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
  if (Object.keys(errors).length > 0) throw badRequest('Validation failed', errors);

  const snapshot = await catalogue.current();
  const route = input.routeId === undefined ? null : snapshot.routeById.get(input.routeId);
  if (route === undefined || (route && !route.active)) throw notFound(`Route ${input.routeId} not found`);

  const altitude = route ? route.maxAltitude : (input.maxAltitude as number);
  const age = input.ages[0];
  const ctg = recommendPackage(snapshot.ctgs, { altitude, age, routeId: route?.id ?? null });
  if (!ctg) {
    throw badRequest('No package covers this trip', {
      ages: `no active package covers a traveller aged ${age} at ${altitude} m`,
    });
  }

  const window = tripWindow(input);
  const price = pricePackage(ctg, window.durationDays);
  const quote = em.create(Quote, {
    company: principal.companyId,
    ctg: ctg.id,
    route: route?.id,
    nationality: input.nationality.trim(),
    age,
    maxAltitude: altitude,
    ...window,
    currency: settings.currency,
    ctgPriceForDuration: price.ctgPriceForDuration,
    totalAmount: price.totalAmount,
    includedDevices: price.includedDevices,
    coverage: ctg.coverage,
    expiresAt: new Date(Date.now() + settings.quoteTtlDays * 86_400_000),
  });
  await em.flush();
  return { quote, ctg, route };
}
