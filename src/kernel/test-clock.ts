import type { EntityManager } from '@mikro-orm/postgresql';

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
 */
export class TestClocks {
  private readonly read = new Map<string, { today: string | undefined; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async of(em: EntityManager, companyId: string): Promise<string | undefined> {
    const known = this.read.get(companyId);
    if (known && this.now() - known.at < TRUSTED_MS) return known.today;
    const [row] = await em
      .getConnection()
      .execute<Array<{ today: string }>>(
        `select to_char("today", 'YYYY-MM-DD') as "today" from "sandbox_clock" where "company_id" = ?`,
        [companyId],
      );
    this.read.set(companyId, { today: row?.today, at: this.now() });
    return row?.today;
  }

  async set(em: EntityManager, companyId: string, today: string, at = new Date()): Promise<void> {
    await em
      .getConnection()
      .execute(
        `insert into "sandbox_clock" ("company_id", "today", "set_at") values (?, ?, ?) on conflict ("company_id") do update set "today" = excluded."today", "set_at" = excluded."set_at"`,
        [companyId, today, at],
      );
    this.read.set(companyId, { today, at: this.now() });
  }

  async remove(em: EntityManager, companyId: string): Promise<void> {
    await em.getConnection().execute(`delete from "sandbox_clock" where "company_id" = ?`, [companyId]);
    this.read.set(companyId, { today: undefined, at: this.now() });
  }
}
