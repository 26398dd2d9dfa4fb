import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A sandbox company's test clock, stored per company (table sandbox_clock; decision record
 * 0080): read on every authenticated request in sandbox mode and by the public verify page of a
 * sandbox company's policy, set and removed through the sandbox helpers. A production server
 * never reads it (it refuses sandbox payments, and with them the helpers).
 */
export async function testClockOf(em: EntityManager, companyId: string): Promise<string | undefined> {
  const [row] = await em.getConnection().execute<Array<{ today: string }>>(`select to_char("today", 'YYYY-MM-DD') as "today" from "sandbox_clock" where "company_id" = ?`, [companyId]);
  return row?.today;
}

export async function setTestClock(em: EntityManager, companyId: string, today: string, at = new Date()): Promise<void> {
  await em.getConnection().execute(
    `insert into "sandbox_clock" ("company_id", "today", "set_at") values (?, ?, ?) on conflict ("company_id") do update set "today" = excluded."today", "set_at" = excluded."set_at"`,
    [companyId, today, at],
  );
}

export async function removeTestClock(em: EntityManager, companyId: string): Promise<void> {
  await em.getConnection().execute(`delete from "sandbox_clock" where "company_id" = ?`, [companyId]);
}
