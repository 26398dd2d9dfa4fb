import type { EntityManager } from '@mikro-orm/postgresql';
import type { PoolClient } from 'pg';
import type { CsvExports, CsvExportStream } from '../../kernel/db/csv-exports';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { QueryOf, Schemas } from '../../kernel/http/wire';
import { csvRow } from '../../kernel/csv';
import { orderBookFilterErrors, orderSearchOf, type OrderBookFilter } from './rules/order-book-filters';

export type OrderBookQuery = QueryOf<'listOrders'>;

/** How the caller may read a listed order: it placed it, or another company listed it as an agency. */
export type OrderBookAccess = 'OWNER' | 'LISTED_AGENCY';

/** One order of the book, as read from the database: amount as its decimal text, dates `YYYY-MM-DD`, instants as toISOString writes them. */
export interface OrderBookRow {
  order_ref: string;
  order_number: string;
  status: Schemas['OrderStatus'];
  payment_status: Schemas['PaymentAttemptStatus'];
  policy_number: string | null;
  tourist_id: string;
  traveller_name: string;
  route_name: string | null;
  departure_date: string;
  coverage_start_date: string;
  coverage_end_date: string;
  total_amount: string;
  currency: string;
  group_ref: string | null;
  created_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
  /** The cancellation's refund (or the reversal's that cancelled the order), as cancellationOf reads it. */
  refund_ref: string | null;
  refund_amount: string | null;
  refund_fee: string | null;
  refund_status: Schemas['RefundStatus'] | null;
  access: OrderBookAccess;
  /** What the order's applied extensions' top-ups took (decision record 0099), its decimal text. */
  top_up_amount: string;
}

/** The order of a page (`sortBy`, `sortDir`); the order id breaks ties, so pages never overlap. */
export interface OrderBookSort {
  key: NonNullable<OrderBookQuery['sortBy']>;
  direction: NonNullable<OrderBookQuery['sortDir']>;
}

const NEWEST_FIRST: OrderBookSort = { key: 'createdAt', direction: 'desc' };

/** The column each sort key reads, on `insurance_order`. */
const SORT_COLUMNS: Record<OrderBookSort['key'], string> = {
  createdAt: 'created_at',
  departureDate: 'departure_date',
  totalAmount: 'total_amount',
};

const sortOf = (query: OrderBookQuery): OrderBookSort => ({
  key: query.sortBy ?? NEWEST_FIRST.key,
  direction: query.sortDir ?? NEWEST_FIRST.direction,
});

export interface OrderBookPage {
  rows: OrderBookRow[];
  request: PageRequest;
  total: number;
}

/**
 * One page of the orders the caller may read (decision record 0064), newest first, and the
 * exact number matching. Page and count read one snapshot.
 */
export async function listOrderBook(
  em: EntityManager,
  principal: Principal,
  query: OrderBookQuery,
): Promise<OrderBookPage> {
  const filter = checkedFilter(query);
  const request = pageRequest(query.page, query.size);
  const { page, count } = orderBookQueries(principal.companyId, filter, request, sortOf(query));
  return inReadSnapshot(em, async (client) => {
    const rows = (await client.query<OrderBookRow>(page.text, page.values)).rows;
    const total = Number((await client.query<{ total: string }>(count.text, count.values)).rows[0]?.total ?? 0);
    return { rows, request, total };
  });
}

/**
 * Every order the caller may read that matches, as CSV, through the kernel's export path (its own
 * connections, the company's export limit, one snapshot read by a cursor as the client reads;
 * decision record 0094). The filters are checked first, so a bad request is still a 400.
 */
export function exportOrderBook(
  csvExports: CsvExports,
  principal: Principal,
  query: OrderBookQuery,
  toCells: (row: OrderBookRow) => Array<string | null>,
  header: readonly string[],
): Promise<CsvExportStream> {
  const filter = checkedFilter(query);
  return csvExports.open<OrderBookRow>(principal.companyId, {
    header: csvRow(header),
    sql: orderBookExportQuery(principal.companyId, filter, sortOf(query)),
    line: (row) => csvRow(toCells(row)),
  });
}

function checkedFilter(query: OrderBookQuery): OrderBookFilter {
  const filter: OrderBookFilter = {
    status: query.status,
    paymentStatus: query.paymentStatus,
    departureFrom: query.departureFrom,
    departureTo: query.departureTo,
    createdFrom: query.createdFrom,
    createdTo: query.createdTo,
    groupRef: query.groupRef,
    touristId: query.touristId?.toLowerCase(),
    search: query.search,
  };
  const errors = orderBookFilterErrors(filter);
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);
  return filter;
}

async function inReadSnapshot<T>(em: EntityManager, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  let failed = true;
  try {
    // A parallel worker's start costs more than these index walks save, on a busy machine many times more.
    await client.query(
      'begin isolation level repeatable read read only; set local max_parallel_workers_per_gather = 0',
    );
    const result = await work(client);
    await client.query('commit');
    failed = false;
    return result;
  } finally {
    client.release(failed);
  }
}

interface Sql {
  text: string;
  values: unknown[];
}

/** Numbered parameters ($1, $2, ...) in the order they are added; a value used twice is one parameter. */
class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The filters as conditions on `o` (insurance_order), each served by an index of migration OrderBook. */
function filterConditions(filter: OrderBookFilter, params: Parameters): string[] {
  const conditions: string[] = [];
  if (filter.status?.length) conditions.push(`o.status = any(${params.add(filter.status)}::text[])`);
  if (filter.paymentStatus) conditions.push(`o.payment_status = ${params.add(filter.paymentStatus)}`);
  if (filter.departureFrom) conditions.push(`o.departure_date >= ${params.add(filter.departureFrom)}::date`);
  if (filter.departureTo) conditions.push(`o.departure_date <= ${params.add(filter.departureTo)}::date`);
  if (filter.createdFrom) conditions.push(`o.created_at >= ${params.add(filter.createdFrom)}::timestamptz`);
  if (filter.createdTo) conditions.push(`o.created_at < ${params.add(filter.createdTo)}::timestamptz`);
  if (filter.groupRef)
    conditions.push(`o.group_id = (select g.id from order_group g where g.group_ref = ${params.add(filter.groupRef)})`);
  if (filter.touristId) conditions.push(`o.traveller_id = ${params.add(filter.touristId)}::uuid`);
  if (filter.search) {
    const search = orderSearchOf(filter.search);
    if (search.kind === 'reference') conditions.push(`o.${search.column} = ${params.add(search.value)}`);
    else {
      // fold_text(name) has a trigram index: a fragment of the name finds its travellers, then their orders.
      // Not a materialized CTE shared by both sides: the planner then has no estimate of the
      // travellers found and, with a status filter, scanned the set once per order (1 s at 1,000,000).
      const fragment = params.add(escapeLike(search.fragment));
      conditions.push(
        `o.traveller_id in (select s.id from traveller s where fold_text(s.name) like '%' || fold_text(${fragment}) || '%')`,
      );
    }
  }
  return conditions;
}

/** A traveller, a group or a search finds few orders: read those and sort them, whatever else is asked. */
const selectiveFilter = (filter: OrderBookFilter) => Boolean(filter.search || filter.touristId || filter.groupRef);

/**
 * How the own side of a page reads in page order: one backward walk of a (company_id, key,
 * created_at, id) index per value of the key, each cut to the page's newest rows, then merged.
 * For a status filter that is one walk per status (a broad status stops after a page instead of
 * sorting 600,000); for a short departure range one walk per day. `null`: the plain query.
 */
interface FanOut {
  /** The values, as a subquery of one column. */
  values: string;
  column: 'status' | 'departure_date';
}

/**
 * The most index entries a departure range read day by day may touch: each day gives at most the
 * page's `first` rows. Over it (a long range, a deep page) the range is read whole and sorted.
 */
const DEPARTURE_FAN_OUT_ROWS = 10_000;

function fanOutOf(filter: OrderBookFilter, params: Parameters, first: number): FanOut | null {
  if (selectiveFilter(filter)) return null;
  if (filter.departureFrom && filter.departureTo) {
    const days = (Date.parse(filter.departureTo) - Date.parse(filter.departureFrom)) / 86_400_000 + 1;
    if (days * first <= DEPARTURE_FAN_OUT_ROWS) {
      return {
        values: `(select generate_series(${params.add(filter.departureFrom)}::date, ${params.add(filter.departureTo)}::date, interval '1 day')::date)`,
        column: 'departure_date',
      };
    }
  }
  // The schema refuses a status given twice (uniqueItems), which would walk its orders twice.
  if (filter.status?.length)
    return { values: `(select unnest(${params.add(filter.status)}::text[]))`, column: 'status' };
  return null;
}

/**
 * The caller's own orders and those other companies listed it on, as (id, created_at, access).
 * With `first`, each side is cut to its first `first` rows in creation order (newest first unless
 * `direction` is asc) before they are merged: the own side
 * is then a backward walk of a (company_id, ..., created_at, id) index (one per value of `fanOut`),
 * where the planner would otherwise read a company that is most of the table whole and sort it.
 */
function visibleOrders(
  company: string,
  conditions: string[],
  listingsDrive: boolean,
  first?: string,
  fanOut?: FanOut | null,
  direction: OrderBookSort['direction'] = 'desc',
): string {
  const and = conditions.map((condition) => ` and ${condition}`).join('');
  const cut = first === undefined ? '' : ` order by o.created_at ${direction}, o.id ${direction} limit ${first}`;
  const own =
    fanOut && first !== undefined
      ? `select f.id, f.created_at, 'OWNER' as access from ${fanOut.values} as k(value)
      cross join lateral (select o.id, o.created_at from insurance_order o where o.company_id = ${company} and o.${fanOut.column} = k.value${and}${cut}) f
      order by f.created_at ${direction}, f.id ${direction} limit ${first}`
      : `select o.id, o.created_at, 'OWNER' as access from insurance_order o where o.company_id = ${company}${and}${cut}`;
  // The listing carries its order's created_at (migration OrderBookCounts): a page walks the newest listings.
  const listedCut =
    first === undefined ? '' : ` order by l.order_created_at ${direction}, l.order_id ${direction} limit ${first}`;
  return `(${own})
    union all
    (select o.id, o.created_at, 'LISTED_AGENCY' from ${listedOrders(company, and, listingsDrive)}${listedCut})`;
}

/**
 * The orders other companies listed the caller on, as `l` (order_travel_company) and `o`. Filtered
 * by status and payment status only (or not at all), the listings drive and each order is tested
 * in turn (`offset 0` keeps the subquery a subquery): a company is listed on few orders, and the
 * planner's own choice, a hash join over every order of a payment status, read 100,000 rows for
 * 200. Any other filter (a date range, a traveller, a name) finds its orders faster from its
 * index, and the planner joins from those.
 */
function listedOrders(company: string, and: string, listingsDrive: boolean): string {
  if (listingsDrive) {
    return `order_travel_company l cross join lateral (select o.id, o.created_at from insurance_order o
      where o.id = l.order_id and o.company_id <> ${company}${and} offset 0) o
    where l.company_id = ${company} and not l.placer`;
  }
  return `order_travel_company l join insurance_order o on o.id = l.order_id
    where l.company_id = ${company} and not l.placer and o.company_id <> ${company}${and}`;
}

/** An instant as Date.toISOString writes it (UTC, milliseconds), like every other timestamp the API answers. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const DETAIL = `select o.order_ref, o.order_number, o.status, o.payment_status, o.policy_number, o.traveller_id as tourist_id,
    t.name as traveller_name, coalesce(r.name, o.custom_route_name) as route_name,
    o.departure_date::text as departure_date, o.coverage_start_date::text as coverage_start_date, o.coverage_end_date::text as coverage_end_date,
    o.total_amount::text as total_amount, o.currency, g.group_ref, ${iso('o.created_at')} as created_at, ${iso('o.paid_at')} as paid_at,
    ${iso(`(select c.cancelled_at from order_cancellation c where c.order_id = o.id)`)} as cancelled_at,
    rf.refund_ref, rf.amount::text as refund_amount, rf.fee::text as refund_fee, rf.status as refund_status,
    v.access, coalesce(tu.amount, 0)::numeric(14,2)::text as top_up_amount`;
const DETAIL_JOINS = `join insurance_order o on o.id = v.id
  join traveller t on t.id = o.traveller_id
  left join route r on r.id = o.route_id
  left join order_group g on g.id = o.group_id
  left join lateral (select x.refund_ref, x.amount, x.fee, x.status from refund x
    where x.order_id = o.id and x.cause in ('CANCELLATION', 'PROVIDER_REVERSAL') order by x.created_at, x.refund_ref limit 1) rf on true
  left join lateral (select sum(am.amount_due) as amount from order_amendment am
    where am.order_id = o.id and am.status = 'APPLIED' and am.payment_ref is not null) tu on true`;

/** The filters `order_status_count` counts by (migration OrderBookCounts); with any other, the rows are counted. */
const COUNTED_FILTERS: ReadonlySet<keyof OrderBookFilter> = new Set(['status', 'paymentStatus']);

function countedByCounters(filter: OrderBookFilter): boolean {
  return Object.entries(filter).every(
    ([name, value]) =>
      value === undefined ||
      (Array.isArray(value) && value.length === 0) ||
      COUNTED_FILTERS.has(name as keyof OrderBookFilter),
  );
}

/** The page and count statements of a listing; exported so the benchmark can EXPLAIN exactly these. */
export function orderBookQueries(
  companyId: string,
  filter: OrderBookFilter,
  request: PageRequest,
  sort: OrderBookSort = NEWEST_FIRST,
): { page: Sql; count: Sql } {
  const params = new Parameters();
  const company = `${params.add(companyId)}::uuid`;
  const conditions = filterConditions(filter, params);
  const page =
    sort.key === 'createdAt'
      ? creationOrderPage(company, filter, conditions, request, sort.direction, params)
      : keyOrderPage(company, filter, conditions, request, sort, params);

  const countParams = new Parameters();
  const countCompany = `${countParams.add(companyId)}::uuid`;
  // Filtered by status and payment status alone (or not at all), the company's own orders are the
  // sum of its counters (kept at the commit of each change): no order row is read.
  let own: string;
  if (countedByCounters(filter)) {
    const keys = [`c.company_id = ${countCompany}`];
    if (filter.status?.length) keys.push(`c.status = any(${countParams.add(filter.status)}::text[])`);
    if (filter.paymentStatus) keys.push(`c.payment_status = ${countParams.add(filter.paymentStatus)}`);
    own = `(select coalesce(sum(c.orders), 0) from order_status_count c where ${keys.join(' and ')})`;
  }
  const countConditions = filterConditions(filter, countParams);
  const and = countConditions.map((condition) => ` and ${condition}`).join('');
  own ??= `(select count(*) from insurance_order o where o.company_id = ${countCompany}${and})`;
  // Unfiltered, the listings by others are the partial index's rows.
  const listed =
    countConditions.length === 0
      ? `(select count(*) from order_travel_company l where l.company_id = ${countCompany} and not l.placer)`
      : `(select count(*) from ${listedOrders(countCompany, and, countedByCounters(filter))})`;
  return {
    page: { text: page, values: params.values },
    count: { text: `select ${own} + ${listed} as total`, values: countParams.values },
  };
}

/**
 * A page in creation order, either way: each side walks its (…, created_at, id) index from the
 * page's end and is cut to the rows the page can use, before they are merged.
 */
function creationOrderPage(
  company: string,
  filter: OrderBookFilter,
  conditions: string[],
  request: PageRequest,
  direction: OrderBookSort['direction'],
  params: Parameters,
): string {
  const fanOut = fanOutOf(filter, params, offsetOf(request) + request.size);
  const limit = params.add(request.size);
  const offset = params.add(offsetOf(request));
  const first = params.add(offsetOf(request) + request.size);
  return `${DETAIL} from (${visibleOrders(company, conditions, countedByCounters(filter), first, fanOut, direction)} order by created_at ${direction}, id ${direction} limit ${limit} offset ${offset}) v
    ${DETAIL_JOINS} order by v.created_at ${direction}, v.id ${direction}`;
}

/**
 * A page by another key: no index serves a key across both sides, so the visible orders are
 * sorted by it whole; only the page's rows are then read in detail.
 */
function keyOrderPage(
  company: string,
  filter: OrderBookFilter,
  conditions: string[],
  request: PageRequest,
  sort: OrderBookSort,
  params: Parameters,
): string {
  const limit = params.add(request.size);
  const offset = params.add(offsetOf(request));
  const direction = sort.direction;
  return `${DETAIL} from (select v.id, v.access, k.${SORT_COLUMNS[sort.key]} as sort_key
      from (${visibleOrders(company, conditions, countedByCounters(filter))}) v join insurance_order k on k.id = v.id
      order by sort_key ${direction}, v.id ${direction} limit ${limit} offset ${offset}) v
    ${DETAIL_JOINS} order by v.sort_key ${direction}, v.id ${direction}`;
}

/** Every matching order in the order asked (newest first by default), with the detail columns: the export's cursor. */
export function orderBookExportQuery(
  companyId: string,
  filter: OrderBookFilter,
  sort: OrderBookSort = NEWEST_FIRST,
): Sql {
  const params = new Parameters();
  const company = `${params.add(companyId)}::uuid`;
  const conditions = filterConditions(filter, params);
  const order = `o.${SORT_COLUMNS[sort.key]} ${sort.direction}, v.id ${sort.direction}`;
  return {
    text: `${DETAIL} from (${visibleOrders(company, conditions, countedByCounters(filter))}) v ${DETAIL_JOINS} order by ${order}`,
    values: params.values,
  };
}
