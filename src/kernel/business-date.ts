/**
 * Dates of the Nepal market as `YYYY-MM-DD` strings. "Today" is the Kathmandu date,
 * whatever the server's own time zone is.
 */
const DAY_MS = 86_400_000;
const kathmanduFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kathmandu',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

// Every time zone's midnight falls on a whole minute, so the date is formatted once a minute;
// formatting it on each call was 2.5% of the server's CPU per quote (BENCHMARKS.md).
let lastMinute = Number.NaN;
let lastDate = '';

export function kathmanduToday(now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute) {
    lastDate = kathmanduFormatter.format(now);
    lastMinute = minute;
  }
  return lastDate;
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days in an inclusive window: a trip from the 1st to the 3rd lasts 3 days. */
export function inclusiveDays(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Whole years between a birth date and a day, as a person counts their age. */
export function ageOn(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateParts(dateOfBirth);
  const [y, m, d] = dateParts(day);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

function dateParts(date: string): [number, number, number] {
  const [year, month, day] = date.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined)
    throw new Error(`${date} is not a YYYY-MM-DD date`);
  return [year, month, day];
}
