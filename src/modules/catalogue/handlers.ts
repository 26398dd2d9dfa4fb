import { matchesCtgFilter, matchesRouteFilter } from './rules/catalogue-filters';
import { amountFromMinor } from '../../kernel/money';
import { compareBy, pageRequest, routePage, slice, springPage } from '../../kernel/http/pagination';
import { pricePackage } from './rules/pricing';
import { successBody } from '../../kernel/http/envelope';
import type { CtgView, RouteView } from './catalogue';
import { createQuote } from './quoting';
import { listDisruptions } from './disruptions';
import { readQuote, type QuoteReadback } from './quote-readback';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { QueryOf, Schemas } from '../../kernel/http/wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';

const CTG_SORT_KEYS: Record<NonNullable<QueryOf<'listCtgs'>['sortBy']>, (ctg: Schemas['Ctg']) => string | number> = {
  displayOrder: () => 0, // the snapshot is already in displayOrder; a stable sort keeps it
  ctgName: (ctg) => ctg.ctgName,
  ctgCode: (ctg) => ctg.ctgCode,
  totalPrice: (ctg) => ctg.totalPrice,
  maxAltitude: (ctg) => ctg.maxAltitude,
  baseDurationDays: (ctg) => ctg.baseDurationDays,
};

const ROUTE_SORT_KEYS: Record<NonNullable<QueryOf<'listRoutes'>['sortBy']>, (route: RouteView) => string | number> = {
  name: (route) => route.name,
  region: (route) => route.region,
  trekName: (route) => route.trekName,
  maxAltitude: (route) => route.maxAltitude,
};

export const referenceHandlers = {
  async createQuote({ body }, scope) {
    const priced = await createQuote(scope.em, scope.services.catalogue, callerOf(scope), body, scope.services.config);
    return { status: 200, body: successBody(quoteWire(priced), 'Quote created') };
  },

  async getQuote({ params }, scope) {
    return {
      status: 200,
      body: successBody(quoteWire(await readQuote(scope.em, callerOf(scope), params.quoteId)), 'Quote retrieved'),
    };
  },

  async listCtgs({ query }, { services }) {
    const { ctgs } = await services.catalogue.current();
    const sortDir = query.sortDir ?? 'asc';
    const sortBy = query.sortBy ?? 'displayOrder';
    const matching = ctgs
      .filter((ctg) => ctg.active && matchesCtgFilter(ctg, query))
      .map((ctg) => ctgWire(ctg, services.config.currency));
    if (sortBy === 'displayOrder' && sortDir === 'desc') matching.reverse();
    else matching.sort(compareBy(CTG_SORT_KEYS[sortBy], sortDir));
    const request = pageRequest(query.page, query.size);
    return { status: 200, body: successBody(springPage(slice(matching, request), request, matching.length)) };
  },

  async listRoutes({ query }, { services }) {
    const { routes } = await services.catalogue.current();
    const matching = routes
      .filter((route) => route.active && matchesRouteFilter(route, query))
      .sort(compareBy(ROUTE_SORT_KEYS[query.sortBy ?? 'name'], query.sortDir ?? 'asc'));
    const request = pageRequest(query.page, query.size);
    return {
      status: 200,
      body: successBody(routePage(slice(matching, request).map(routeWire), request, matching.length)),
    };
  },

  async listDisruptions({ query }, scope) {
    const disruptions = await listDisruptions(scope.em, { area: query.area, status: query.status });
    return { status: 200, body: successBody(disruptions, 'Disruptions retrieved') };
  },
} satisfies TagHandlers;

function routeWire(route: RouteView): Schemas['RouteSummary'] {
  return {
    routeId: route.id,
    name: route.name,
    region: route.region,
    trekName: route.trekName,
    routeType: route.routeType,
    routeCategory: route.routeCategory,
    maxAltitude: route.maxAltitude,
    description: route.description,
    area: route.area,
  };
}

/** A listing shows the price of the package for its base duration. */
function ctgWire(ctg: CtgView, currency: string): Schemas['Ctg'] {
  const price = pricePackage(ctg, ctg.baseDurationDays);
  return {
    ctgId: ctg.id,
    ctgCode: ctg.code,
    ctgName: ctg.name,
    insuranceProductId: ctg.insuranceProductId,
    routeId: ctg.routeId,
    insuranceCompany: ctg.insuranceCompany,
    productType: ctg.productType,
    minAltitude: ctg.minAltitude,
    maxAltitude: ctg.maxAltitude,
    baseDurationDays: ctg.baseDurationDays,
    minAge: ctg.minAge,
    maxAge: ctg.maxAge,
    baseCtgPrice: amountFromMinor(ctg.baseCtgPrice),
    ctgPriceForDuration: amountFromMinor(price.ctgPriceForDuration),
    includedDevicesPrice: amountFromMinor(price.includedDevicesPrice),
    totalPrice: amountFromMinor(price.totalAmount),
    currency,
    liabilities: ctg.coverage.map((line) => ({ ...line, coverageAmount: amountFromMinor(line.coverageAmount) })),
    includedDevices: ctg.includedDevices.map((device) => ({
      deviceId: device.deviceId,
      name: device.name,
      description: device.description,
      quantity: device.quantity,
      dailyPrice: amountFromMinor(device.dailyPrice),
      priceForBaseDuration: amountFromMinor(device.dailyPrice * device.quantity * ctg.baseDurationDays),
    })),
    description: ctg.description,
    termsConditions: ctg.termsConditions,
  };
}

/** A quote as its creation answers it and its readback returns it (a priced quote carries more than this reads). */
function quoteWire({ quote, ctg, route }: QuoteReadback): Schemas['Quote'] {
  return {
    quoteId: quote.id,
    quoteStatus: quote.status,
    createdAt: quote.createdAt.toISOString(),
    validUntil: quote.expiresAt.toISOString(),
    ctgId: ctg.id,
    ctgCode: ctg.code,
    ctgName: ctg.name,
    nationality: quote.nationality,
    numberOfPersons: 1,
    ages: [quote.age],
    routeId: route?.id ?? null,
    routeName: route?.name ?? null,
    maxAltitude: quote.maxAltitude,
    startDate: quote.startDate,
    endDate: quote.endDate,
    durationDays: quote.durationDays,
    totalAmount: amountFromMinor(quote.totalAmount),
    currency: quote.currency,
    insuranceCompany: ctg.insuranceCompany,
    coverage: quote.coverage.map((line) => ({ ...line, coverageAmount: amountFromMinor(line.coverageAmount) })),
    includedDevices: quote.includedDevices.map((device) => ({
      ...device,
      priceForDuration: amountFromMinor(device.priceForDuration),
    })),
  };
}

/** A quote writes a row: counted per company like every write. */
export const cataloguePolicies = {
  createQuote: { rateLimits: [{ counter: 'quote', limit: (limits) => limits.quotePerCompany }] },
} satisfies OperationPolicies;
