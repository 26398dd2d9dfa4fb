import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays } from '../../kernel/business-date';
import { minorFromAmount } from '../../kernel/money';
import { priceOrder } from './rules/order-pricing';
import { ageOutsideBand, orderRequestErrors, orderTravelCompanyIds, type OrderCaller } from './rules/order-request';
import { markQuoteUsed, pricePackage } from '../catalogue';
import { Company, CompanyType } from '../partners/entities/company';
import { Ctg } from '../catalogue/entities/ctg';
import { Order, SettlementType, type AddedItemRecord, type OrderDevice } from './entities/order';
import { OrderGroup } from './entities/order-group';
import { OrderTravelCompany } from './entities/order-travel-company';
import { Quote, QuoteStatus } from '../catalogue/entities/quote';
import { Route } from '../catalogue/entities/route';
import { Traveller } from '../travellers/entities/traveller';
import { invalid, conflict, notFound, type FieldErrors } from '../../kernel/errors';
import type { Schemas } from '../../kernel/http/wire';
import type { Principal } from '../../kernel/http/request-scope';
import { allocateGroupRef, allocateOrderReferences } from './order-references';
import { present } from '../../kernel/narrow';
import { UNIQUE, violatesUnique } from '../../kernel/db/unique-violation';
import { businessNow } from '../../kernel/business-today';

export type OrderInput = Schemas['OrderInput'];

export interface OrderSettings {
  currency: string;
  /** Applies the create request's `promoCode` inside the create transaction (the promos module's rules, wired by the composition). */
  applyPromo: PromoAtOrderCreation;
}

/** Outcome of the `promoCode` sent with POST /orders (spec: PromoApplyResult). */
export interface PromoApplyOutcome {
  promoCode: string;
  applied: boolean;
  /** Machine-readable reason when not applied, null when applied. */
  reason: string | null;
  message: string;
}

/**
 * Applies a create request's promo code to the freshly created order; it never throws for a
 * rejected code, since the order is created either way (spec/components/schemas/PromoApplyResult.yaml).
 */
export type PromoAtOrderCreation = (
  em: EntityManager,
  principal: Principal,
  order: Order,
  promoCode: string,
) => Promise<PromoApplyOutcome>;

export interface CreatedOrder {
  order: Order;
  /** Present when the request carried a promoCode. */
  promoApplyResult?: PromoApplyOutcome;
}

export interface CreatedGroup {
  group: OrderGroup;
  orders: CreatedOrder[];
}

/** POST /orders with an object body: one order, optionally added to an existing group of the caller. */
export async function createOrder(
  em: EntityManager,
  principal: Principal,
  input: OrderInput,
  settings: OrderSettings,
): Promise<CreatedOrder> {
  const [created] = await placeOrders(em, principal, [input], false, settings);
  return present(created, 'the order of a one-item request');
}

/** POST /orders with an array body: a new group holding every order, all or nothing. */
export async function createOrderGroup(
  em: EntityManager,
  principal: Principal,
  inputs: OrderInput[],
  settings: OrderSettings,
): Promise<CreatedGroup> {
  const created = await placeOrders(em, principal, inputs, true, settings);
  return { group: present(created[0]?.order.group, 'the new group'), orders: created };
}

/** One request item, with how its field errors and messages are named (`[2].ctgId` in a group). */
interface Item {
  input: OrderInput;
  field: (name: string) => string;
  /** Appended to a 404 message so a partner knows which array item failed. */
  where: string;
  label: string;
  travelCompanyIds: string[];
}

interface Loaded {
  travellers: Map<string, Traveller>;
  ctgs: Map<string, Ctg>;
  routes: Map<string, Route>;
  quotes: Map<string, Quote>;
  companies: Map<string, Company>;
  group?: OrderGroup;
}

/**
 * The use case, in order: rules on the request alone (400) -> in one transaction: load and lock
 * what the items name (404) -> rules against stored data (400) -> quote already used (409) ->
 * references from the sequences, the rows, the quotes marked USED -> promo codes, non-fatally.
 * Any error rolls the whole transaction back: no order, no group, no consumed quote.
 */
async function placeOrders(
  em: EntityManager,
  principal: Principal,
  inputs: OrderInput[],
  asGroup: boolean,
  settings: OrderSettings,
): Promise<CreatedOrder[]> {
  const caller = orderCaller(principal);
  const items: Item[] = inputs.map((raw, index) => {
    const input = normaliseIds(raw);
    return {
      input,
      field: asGroup ? (name) => `[${index}].${name}` : (name) => name,
      where: asGroup ? ` (item [${index}])` : '',
      label: `item [${index}]`,
      travelCompanyIds: orderTravelCompanyIds(input, caller),
    };
  });
  throwIfAny(requestErrors(items, caller, asGroup));

  return em.transactional(async (tx) => {
    const loaded = await loadNamedRecords(tx, principal, items);
    throwIfAny(storedDataErrors(items, loaded));
    for (const item of items) {
      const quote = item.input.quoteId ? loaded.quotes.get(item.input.quoteId) : undefined;
      if (quote?.status === QuoteStatus.Used) throw await quoteUsed(tx, quote.id, item.where);
    }

    const references = await allocateOrderReferences(tx, items.length);
    const group = asGroup
      ? tx.create(OrderGroup, {
          groupRef: await allocateGroupRef(tx),
          company: tx.getReference(Company, principal.companyId),
          currency: settings.currency,
        })
      : loaded.group;
    const orders = items.map((item, index) =>
      buildOrder(
        tx,
        principal,
        item,
        loaded,
        present(references[index], `the references of ${item.label}`),
        group,
        settings,
      ),
    );
    try {
      await tx.flush();
    } catch (error) {
      // Two requests raced for one quote and the other committed first: the unique index decides.
      if (violatesUnique(error, [UNIQUE.orderQuote])) {
        throw conflict(
          'The quote has already been used by an order placed at the same moment: read it with GET /orders, or ask POST /reference/quote for a new quote',
        ).coded('QUOTE_ALREADY_USED');
      }
      throw error;
    }

    const created: CreatedOrder[] = [];
    for (const [index, order] of orders.entries()) {
      const promoCode = present(items[index], `item [${index}]`).input.promoCode;
      created.push(
        promoCode === undefined
          ? { order }
          : { order, promoApplyResult: await settings.applyPromo(tx, principal, order, promoCode) },
      );
    }
    // Without a promo code nothing changed since the flush above; a second one would only re-check every entity.
    if (created.some((entry) => entry.promoApplyResult !== undefined)) await tx.flush();
    return created;
  });
}

function orderCaller(principal: Principal): OrderCaller {
  return {
    companyId: principal.companyId,
    isTravelAgency: principal.companyType === CompanyType.TravelAgency,
    commissionPercent: Number(principal.commissionPercent),
  };
}

/** IDs are compared as lower-case strings from here on; the schema accepts either case. */
function normaliseIds(input: OrderInput): OrderInput {
  const lower = (id: string | undefined) => id?.toLowerCase();
  return {
    ...input,
    touristId: input.touristId.toLowerCase(),
    ctgId: input.ctgId.toLowerCase(),
    routeId: lower(input.routeId),
    quoteId: lower(input.quoteId),
    orderGroupId: lower(input.orderGroupId),
    travelCompanyIds: input.travelCompanyIds?.map((id) => id.toLowerCase()),
    excludedIncludedDeviceIds: input.excludedIncludedDeviceIds?.map((id) => id.toLowerCase()),
  };
}

function requestErrors(items: Item[], caller: OrderCaller, asGroup: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const quoteUsedBy = new Map<string, string>();
  for (const item of items) {
    for (const [name, message] of Object.entries(orderRequestErrors(item.input, caller)))
      errors[item.field(name)] = message;
    if (asGroup && item.input.orderGroupId !== undefined) {
      errors[item.field('orderGroupId')] = 'an array body creates its own group; send orderGroupId with a single order';
    }
    const quoteId = item.input.quoteId;
    if (quoteId !== undefined) {
      const earlier = quoteUsedBy.get(quoteId);
      if (earlier) errors[item.field('quoteId')] = `the same quote is already used by ${earlier} of this request`;
      else quoteUsedBy.set(quoteId, item.label);
    }
  }
  return errors;
}

/** Loads everything the items name in a handful of queries; anything missing is a 404. */
async function loadNamedRecords(tx: EntityManager, principal: Principal, items: Item[]): Promise<Loaded> {
  const ids = (pick: (item: Item) => string | string[] | undefined) => [
    ...new Set(items.flatMap((item) => pick(item) ?? [])),
  ];
  const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  const quoteIds = ids((item) => item.input.quoteId);
  const groupId = present(items[0], 'the first item').input.orderGroupId;

  // One query per kind, one after the other (they share the transaction's connection anyway),
  // and none for a kind no item names.
  const travellers = await tx.find(Traveller, {
    id: { $in: ids((item) => item.input.touristId) },
    company: principal.companyId,
  });
  const ctgs = await tx.find(Ctg, { id: { $in: ids((item) => item.input.ctgId) }, active: true });
  const routeIds = ids((item) => item.input.routeId);
  const routes = routeIds.length === 0 ? [] : await tx.find(Route, { id: { $in: routeIds }, active: true });
  const companyIds = ids((item) => item.travelCompanyIds);
  const companies =
    companyIds.length === 0
      ? []
      : await tx.find(Company, { id: { $in: companyIds }, type: CompanyType.TravelAgency, active: true });
  // Locked in id order, so two requests sharing quotes queue instead of deadlocking.
  const quotes =
    quoteIds.length === 0
      ? []
      : await tx.find(
          Quote,
          { id: { $in: quoteIds }, company: principal.companyId },
          { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
        );
  const group =
    groupId === undefined ? null : await tx.findOne(OrderGroup, { id: groupId, company: principal.companyId });
  const loaded: Loaded = {
    travellers: byId(travellers),
    ctgs: byId(ctgs),
    routes: byId(routes),
    companies: byId(companies),
    quotes: byId(quotes),
    group: group ?? undefined,
  };

  for (const { input, where, travelCompanyIds } of items) {
    if (!loaded.travellers.has(input.touristId)) throw notFound(`Traveller ${input.touristId} not found${where}`);
    if (!loaded.ctgs.has(input.ctgId)) throw notFound(`Package ${input.ctgId} not found${where}`);
    if (input.routeId !== undefined && !loaded.routes.has(input.routeId))
      throw notFound(`Route ${input.routeId} not found${where}`);
    if (input.quoteId !== undefined && !loaded.quotes.has(input.quoteId))
      throw notFound(`Quote ${input.quoteId} not found${where}`);
    const unknownAgency = travelCompanyIds.find((id) => !loaded.companies.has(id));
    if (unknownAgency) throw notFound(`Travel company ${unknownAgency} not found${where}`);
    if (input.orderGroupId !== undefined && !loaded.group)
      throw notFound(`Order group ${input.orderGroupId} not found${where}`);
  }
  return loaded;
}

/** Rules that compare an item with the stored quote, package, route and traveller. */
function storedDataErrors(items: Item[], loaded: Loaded, now = businessNow()): FieldErrors {
  const errors: FieldErrors = {};
  for (const { input, field } of items) {
    const ctg = present(loaded.ctgs.get(input.ctgId), `package ${input.ctgId}`);
    const traveller = present(loaded.travellers.get(input.touristId), `traveller ${input.touristId}`);
    const route = input.routeId === undefined ? undefined : loaded.routes.get(input.routeId);
    const quote = input.quoteId === undefined ? undefined : loaded.quotes.get(input.quoteId);

    if (quote) {
      if (quote.status === QuoteStatus.Expired || (quote.status === QuoteStatus.Active && quote.expiresAt <= now)) {
        errors[field('quoteId')] = `the quote expired at ${quote.expiresAt.toISOString()}; request a new quote`;
      }
      if (quote.ctg.id !== ctg.id) errors[field('ctgId')] = `must match the quote's package ${quote.ctg.id}`;
      const quotedRouteId = quote.route?.id;
      if (quotedRouteId !== input.routeId) {
        errors[field('routeId')] = quotedRouteId
          ? `must match the quote's route ${quotedRouteId}`
          : 'the quote was priced by altitude, not for a listed route: send customRouteName instead';
      }
      if (input.departureDate !== quote.startDate)
        errors[field('departureDate')] = `must match the quote start date ${quote.startDate}`;
    } else {
      const packageRouteId = ctg.route?.id;
      if (packageRouteId && packageRouteId !== input.routeId) {
        errors[field('ctgId')] = `package ${ctg.code} is sold only for its own route ${packageRouteId}`;
      } else if (route && route.maxAltitude > ctg.maxAltitude) {
        errors[field('ctgId')] =
          `package ${ctg.code} covers up to ${ctg.maxAltitude} m; ${route.name} reaches ${route.maxAltitude} m`;
      }
    }

    const age = ageOutsideBand(traveller.dateOfBirth, input.departureDate, ctg);
    if (age !== null) {
      errors[field('touristId')] =
        `the traveller is ${age} at departure; package ${ctg.code} covers ages ${ctg.minAge} to ${ctg.maxAge}`;
    }

    const offered = new Set(offeredDevices(ctg, quote).map((device) => device.deviceId));
    (input.excludedIncludedDeviceIds ?? []).forEach((deviceId, index) => {
      if (!offered.has(deviceId))
        errors[field(`excludedIncludedDeviceIds[${index}]`)] = `${deviceId} is not an included device of the package`;
    });
  }
  return errors;
}

/** The included devices priced for the order's window: the quoted ones, or the package's for its base duration. */
function offeredDevices(ctg: Ctg, quote: Quote | undefined): OrderDevice[] {
  const devices = quote ? quote.includedDevices : pricePackage(ctg, ctg.baseDurationDays).includedDevices;
  return devices.map(({ deviceId, name, quantity, priceForDuration }) => ({
    deviceId,
    name,
    quantity,
    priceForDuration,
  }));
}

/** The order's window and price: a quote fixes both; without one the cover runs for the package's base duration. */
function pricedItem(input: OrderInput, ctg: Ctg, quote: Quote | undefined) {
  const window = quote
    ? { coverageStartDate: quote.startDate, coverageEndDate: quote.endDate, durationDays: quote.durationDays }
    : {
        coverageStartDate: input.departureDate,
        coverageEndDate: addDays(input.departureDate, ctg.baseDurationDays - 1),
        durationDays: ctg.baseDurationDays,
      };
  const packagePrice = quote ? quote.ctgPriceForDuration : pricePackage(ctg, ctg.baseDurationDays).ctgPriceForDuration;
  const excluded = new Set(input.excludedIncludedDeviceIds ?? []);
  const includedDevices = offeredDevices(ctg, quote).filter((device) => !excluded.has(device.deviceId));
  const addedServices = input.addedServices?.map(addedItemRecord);
  const addedDevices = input.addedDevices?.map(addedItemRecord);
  const directDiscountPercent = input.directDiscountPercent ?? 0;
  const price = priceOrder({
    packagePrice,
    includedDevices,
    addedItems: [...(addedServices ?? []), ...(addedDevices ?? [])],
    companyPromoDiscount: 0,
    agentPromoDiscount: 0,
    directDiscountPercent,
  });
  return { window, packagePrice, includedDevices, excluded, addedServices, addedDevices, directDiscountPercent, price };
}

function buildOrder(
  tx: EntityManager,
  principal: Principal,
  item: Item,
  loaded: Loaded,
  references: { orderRef: string; orderNumber: string },
  group: OrderGroup | undefined,
  settings: OrderSettings,
): Order {
  const { input } = item;
  const ctg = present(loaded.ctgs.get(input.ctgId), `package ${input.ctgId}`);
  const quote = input.quoteId === undefined ? undefined : loaded.quotes.get(input.quoteId);
  const { window, packagePrice, includedDevices, excluded, addedServices, addedDevices, directDiscountPercent, price } =
    pricedItem(input, ctg, quote);

  const order = tx.create(Order, {
    ...references,
    company: tx.getReference(Company, principal.companyId),
    settlementType: input.settlementType === 'CASH' ? SettlementType.Cash : SettlementType.Online,
    traveller: present(loaded.travellers.get(input.touristId), `traveller ${input.touristId}`),
    ctg,
    route: input.routeId === undefined ? undefined : loaded.routes.get(input.routeId),
    customRouteName: input.customRouteName?.trim(),
    departureDate: input.departureDate,
    ...window,
    quote,
    group,
    // A sales company earns the commission on what it sells (decision record 0074).
    commissionCompany:
      principal.companyType === CompanyType.SalesCompany ? tx.getReference(Company, principal.companyId) : undefined,
    customTravelAgencies: input.customTravelAgencies ?? [],
    referralCode: input.referralCode,
    currency: quote?.currency ?? settings.currency,
    packagePrice,
    includedDevices,
    excludedIncludedDeviceIds: [...excluded],
    addedServices,
    addedDevices,
    directDiscountPercent: directDiscountPercent.toFixed(2),
    directDiscountAmount: price.directDiscountAmount,
    totalAmount: price.totalAmount,
    extraFields: input.extraFields,
    dispatchInfo: input.dispatchInfo,
  });
  item.travelCompanyIds.forEach((companyId, position) => {
    const company = present(loaded.companies.get(companyId), `company ${companyId}`);
    order.travelCompanies.add(
      tx.create(OrderTravelCompany, { order, company, position, placer: companyId === principal.companyId }),
    );
  });
  if (quote) markQuoteUsed(quote);
  return order;
}

function addedItemRecord(item: Schemas['AddedItemInput']): AddedItemRecord {
  return { name: item.name, price: minorFromAmount(item.price), quantity: item.quantity ?? 1 };
}

function throwIfAny(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);
}

/** A used quote, said with the order that used it (the caller's own: a quote is its company's) and what to do instead. */
async function quoteUsed(tx: EntityManager, quoteId: string, where: string) {
  const user = await tx.findOne(Order, { quote: quoteId }, { fields: ['orderRef'] });
  const by = user ? ` by order ${user.orderRef}` : '';
  return conflict(
    `Quote ${quoteId} has already been used${by}${where}: one quote makes one order. Ask POST /reference/quote for a new quote`,
  ).coded('QUOTE_ALREADY_USED');
}
