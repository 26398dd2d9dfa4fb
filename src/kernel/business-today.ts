import { AsyncLocalStorage } from 'node:async_hooks';
import { kathmanduToday } from './business-date';

/**
 * "Today in Nepal" as the business-date rules of one request read it: the real Kathmandu date,
 * unless the request runs for a sandbox company whose test clock is set (decision record 0083).
 * The request's scope holds it, so no rule or use case asks where it comes from, and work that
 * runs outside a request (jobs, the CLI) always reads the real date.
 */
interface BusinessDay {
  testToday?: string;
}

const requestDay = new AsyncLocalStorage<BusinessDay>();

/** Runs one request's handling with its own business day, real until `setTestToday`. */
export function withRequestBusinessDay<T>(handle: () => T): T {
  return requestDay.run({}, handle);
}

/** The test clock this request runs on (undefined: the real one); only inside withRequestBusinessDay. */
export function setTestToday(today: string | undefined): void {
  const day = requestDay.getStore();
  if (!day) throw new Error('setTestToday outside a request: background work keeps the real clock');
  day.testToday = today;
}

/**
 * Runs work a request starts but does not own (a refund pass kicked after its commit, its timers
 * and everything they await) outside that request's business day: on the real date, whatever
 * test clock the request that started it runs on.
 */
export function outsideRequestDay<T>(run: () => T): T {
  return requestDay.exit(run);
}

/** The request's test clock date, when one is set. */
export function testToday(): string | undefined {
  return requestDay.getStore()?.testToday;
}

/** Today in Nepal for a business rule: the request's test clock when set, else the Kathmandu date of `now`. */
export function businessToday(now: Date = new Date()): string {
  return requestDay.getStore()?.testToday ?? kathmanduToday(now);
}

/**
 * The instant a deadline of the business is judged at (a quote's validity): now, moved by as many
 * days as the request's test clock is from the real date, so a deadline set and read under one
 * clock keeps its length.
 */
export function businessNow(now: Date = new Date()): Date {
  const today = requestDay.getStore()?.testToday;
  if (!today) return now;
  return new Date(now.getTime() + Date.parse(`${today}T00:00:00Z`) - Date.parse(`${kathmanduToday(now)}T00:00:00Z`));
}
