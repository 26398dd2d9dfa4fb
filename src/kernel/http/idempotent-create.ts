import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidField } from '../errors';

/**
 * A creating request sent with an `Idempotency-Key`: the company's key for one operation, bound
 * to the request it first came with (decision record 0070).
 */
export interface CreateKey {
  companyId: string;
  operation: string;
  /** The request's `Idempotency-Key`; without one the create simply runs. */
  key: string | undefined;
  /** What the key is bound to: the validated body (and anything else that decides the result). */
  request: unknown;
}

/** A handler's answer, stored as the key's first answer and answered again to a retry. */
export interface CreateAnswer {
  status: number;
  body: unknown;
}

/** The header that tells a partner its answer is a replay of the key's first one (nothing was done twice). */
export const REPLAYED_HEADER = { 'Idempotency-Replayed': 'true' } as const;

/** The headers of an answer that replays an earlier one, for operations that keep their own key (pay, cancel, a case). */
export const replayedHeaders = (replayed: boolean): { headers?: typeof REPLAYED_HEADER } =>
  replayed ? { headers: REPLAYED_HEADER } : {};

/** How long a key answers its first answer; after that the next request with it creates anew. */
export const KEY_LIFETIME_HOURS = 24;

/**
 * Runs `create` once per key: in one transaction that first claims the key, so a concurrent
 * request with the same key waits on the claim and then answers the stored first answer (or a
 * 409 for another body). A create that fails rolls its claim back with everything else, so a
 * retry after a 4xx or a 5xx is a new try. Without a key, `create` simply runs.
 */
export async function idempotentCreate<A extends CreateAnswer>(
  em: EntityManager,
  key: CreateKey,
  create: (tx: EntityManager) => Promise<A>,
): Promise<A & { headers?: typeof REPLAYED_HEADER }> {
  if (key.key === undefined) return create(em);
  const fingerprint = fingerprintOf(key.request);
  return em.transactional(async (tx) => {
    if (!(await claimed(tx, key, fingerprint))) return firstAnswer<A>(tx, key, fingerprint);
    const answer = await create(tx);
    await tx.execute(
      'update idempotent_create set answer_status = ?, answer_body = ? where company_id = ? and operation = ? and key = ?',
      [answer.status, JSON.stringify(answer.body), key.companyId, key.operation, key.key],
    );
    return answer;
  });
}

/** Claims the key, or takes over one past its lifetime; false while another request holds it (PostgreSQL waits for that one to end first). */
async function claimed(tx: EntityManager, key: CreateKey, fingerprint: string): Promise<boolean> {
  const rows = await tx.execute<{ key: string }[]>(
    `insert into idempotent_create (company_id, operation, key, fingerprint) values (?, ?, ?, ?)
     on conflict (company_id, operation, key) do update
       set fingerprint = excluded.fingerprint, answer_status = null, answer_body = null, created_at = now()
       where idempotent_create.created_at < now() - interval '${KEY_LIFETIME_HOURS} hours'
     returning key`,
    [key.companyId, key.operation, key.key, fingerprint],
  );
  return rows.length > 0;
}

async function firstAnswer<A extends CreateAnswer>(
  tx: EntityManager,
  key: CreateKey,
  fingerprint: string,
): Promise<A & { headers: typeof REPLAYED_HEADER }> {
  const row = await tx
    .execute<{ fingerprint: string; answer_status: number; answer_body: unknown }[]>(
      'select fingerprint, answer_status, answer_body from idempotent_create where company_id = ? and operation = ? and key = ?',
      [key.companyId, key.operation, key.key],
    )
    .then((rows) => rows[0]);
  if (!row || row.fingerprint !== fingerprint) {
    throw conflict(
      'This Idempotency-Key was already used for a different request; use a new key for a new request',
    ).coded('IDEMPOTENCY_KEY_REUSED');
  }
  return { status: row.answer_status, body: row.answer_body, headers: REPLAYED_HEADER } as A & {
    headers: typeof REPLAYED_HEADER;
  };
}

/** The same request in any key order gives the same fingerprint. */
function fingerprintOf(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The optional `Idempotency-Key` header of a creating request. The router checks it against the
 * contract for JSON bodies; a multipart upload's headers reach the handler unchecked, so it is
 * checked here too (a key that is not a UUID is a 400, never a database error).
 */
export function createKeyHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw invalidField('Idempotency-Key', 'must be a UUID');
  return value;
}

/** Purges keys past their lifetime (the periodic job); answers how many. */
export async function purgeExpiredCreateKeys(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ key: string }[]>(
    `delete from idempotent_create where created_at < now() - interval '${KEY_LIFETIME_HOURS} hours' returning key`,
  );
  return rows.length;
}
