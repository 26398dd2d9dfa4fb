/** One page of any list of the contract: its items in `content`, and whether more follow. */
interface AnyPage<Item> {
  content: Item[];
  /** The `/travellers` envelope (every list but `/reference/routes`). */
  last?: boolean;
  /** The `/reference/routes` envelope. */
  pagination?: { hasNext: boolean };
}

/** What a one-page call of this client answers (openapi-fetch's shape). */
interface PageAnswer<Item> {
  data?: { data: AnyPage<Item>; timestamp: string } | string;
  error?: unknown;
  response: Response;
}

/** A page of a list the service refused while iterating: the status and the error body (decide on `body.code`). */
export class ListPageError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`GET ${path} answered ${status}`);
    this.name = 'ListPageError';
  }
}

/**
 * The one way this client walks a list: every item, page after page (`for await (const order of
 * client.listOrders({ status: ['PAID'] }))`). When the list filters on its creation time, pages
 * after the first keep the upper bound at the first answer's time (unless you gave one), so items
 * created meanwhile do not shift the pages under you. A refused page throws ListPageError.
 */
export async function* everyItem<Item, Query extends { page?: number }>(
  path: string,
  fetchPage: (query: Query) => Promise<PageAnswer<Item>>,
  query: Omit<Query, 'page'>,
  createdBefore?: keyof Query & string,
): AsyncGenerator<Item, void, undefined> {
  let pinned = { ...query } as Query;
  for (let page = 0; ; page += 1) {
    const { data, error, response } = await fetchPage({ ...pinned, page });
    if (!data || typeof data === 'string') throw new ListPageError(path, response.status, error);
    yield* data.data.content;
    const more = data.data.pagination ? data.data.pagination.hasNext : data.data.last === false;
    if (!more || data.data.content.length === 0) return;
    if (page === 0 && createdBefore && pinned[createdBefore] === undefined)
      pinned = { ...pinned, [createdBefore]: data.timestamp };
  }
}
