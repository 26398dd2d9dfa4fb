import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Client } from 'pg';

const load = createRequire(__filename);

type Query = Client['query'];

/** Both copies of `pg` in node_modules: ours (prepared statements) and MikroORM's. */
const PG_COPIES = [
  'pg',
  path.join(path.dirname(require.resolve('@mikro-orm/postgresql/package.json')), 'node_modules/pg'),
];

/**
 * The SQL statements the in-process server sends while answering the requests `act` makes, in
 * order. Statements of background work (the webhook relay, the job queue) run outside any request
 * and are not counted. The test's form of bench/statement-count.cjs.
 */
export async function statementsOf<T>(act: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const scope = new AsyncLocalStorage<string[]>();
  const statements: string[] = [];
  const server: { emit: (this: http.Server, event: string, ...rest: unknown[]) => boolean } = http.Server.prototype;
  const emit = server.emit;
  server.emit = function (event, ...rest) {
    const forward = () => emit.call(this, event, ...rest);
    return event === 'request' ? scope.run(statements, forward) : forward();
  };
  const restore: (() => void)[] = [() => (server.emit = emit)];
  for (const copy of PG_COPIES) {
    let client: { prototype: { query: Query } };
    try {
      client = (load(copy) as { Client: { prototype: { query: Query } } }).Client;
    } catch {
      continue;
    }
    const query = client.prototype.query;
    client.prototype.query = function (this: Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
      if (text !== undefined) scope.getStore()?.push(text.replace(/\s+/g, ' ').trim());
      return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
    } as Query;
    restore.push(() => (client.prototype.query = query));
  }
  try {
    return { result: await act(), statements };
  } finally {
    for (const undo of restore) undo();
  }
}
