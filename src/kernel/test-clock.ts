import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidField } from './errors';

/** The request header naming the test clock a request runs on (a CI job's own); absent, the company's clock. */
export const CLOCK_NAME_HEADER = 'Sandbox-Clock';

/** The company's own clock: the one a request without `Sandbox-Clock` reads and sets. */
export const COMPANY_CLOCK = '';

const CLOCK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The clock a `Sandbox-Clock` header value names; a 400 for a value that is no clock name. */
export function clockNameOf(header: string | string[] | undefined): string {
  if (header === undefined) return COMPANY_CLOCK;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!CLOCK_NAME.test(value))
    throw invalidField(
      CLOCK_NAME_HEADER,
      'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  return value;
}

/** How long a process trusts what it read of a company's clock: another process's change reaches it within this. */
const TRUSTED_MS = 1_000;

/**
 * The sandbox companies' test clocks (table sandbox_clock; decision record 0083), read on every
 * authenticated request in sandbox mode and by the public verify page of a sandbox policy, set
 * and removed through the sandbox helpers. A production server never reads them (it refuses
 * sandbox payments, and with them the helpers).
 *
 * What a process read is trusted for a second: a SELECT on every request cost the quote about a
 * fifth of its throughput in sandbox mode (bench:test-clock). A change made through this process
 * is seen at once; one made through another process of a cluster within a second.
 *
 * A company has its own clock (named '') and any number of named ones (decision record 0090):
 * a request with `Sandbox-Clock: <name>` reads and sets that one only, so two CI jobs of one
 * partner, each naming its own, never move each other's dates.
 */
export class TestClocks {
  private readonly read = new Map<string, { today: string | undefined; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async of(em: EntityManager, companyId: string, clock = COMPANY_CLOCK): Promise<string | undefined> {
    const key = `${companyId}/${clock}`;
    const known = this.read.get(key);
    if (known && this.now() - known.at < TRUSTED_MS) return known.today;
    const [row] = await em
      .getConnection()
      .execute<Array<{ today: string }>>(
        `select to_char("today", 'YYYY-MM-DD') as "today" from "sandbox_clock" where "company_id" = ? and "name" = ?`,
        [companyId, clock],
      );
    this.read.set(key, { today: row?.today, at: this.now() });
    return row?.today;
  }

  async set(
    em: EntityManager,
    companyId: string,
    today: string,
    clock = COMPANY_CLOCK,
    at = new Date(),
  ): Promise<void> {
    await em
      .getConnection()
      .execute(
        `insert into "sandbox_clock" ("company_id", "name", "today", "set_at") values (?, ?, ?, ?) on conflict ("company_id", "name") do update set "today" = excluded."today", "set_at" = excluded."set_at"`,
        [companyId, clock, today, at],
      );
    this.read.set(`${companyId}/${clock}`, { today, at: this.now() });
  }

  async remove(em: EntityManager, companyId: string, clock = COMPANY_CLOCK): Promise<void> {
    await em
      .getConnection()
      .execute(`delete from "sandbox_clock" where "company_id" = ? and "name" = ?`, [companyId, clock]);
    this.read.set(`${companyId}/${clock}`, { today: undefined, at: this.now() });
  }
}
