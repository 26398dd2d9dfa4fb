import type { Minor } from '../../../kernel/money';
import type { CommissionRole } from './commission-earners';

/** A percent as the ledger keeps it ('12.50') in basis points (1250). */
const basisPoints = (percent: string): bigint => {
  const [whole = '0', fraction = ''] = percent.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
};

/**
 * The percent a line's amount was earned at: its own percent, or under the cap that percent
 * scaled by cap / (the percents every earner of the share asked), as `earnedLines` scales it.
 * Four decimals, cut down as the amount is (8.75, 7.7777): base × it, rounded down, is the amount
 * to the paisa (decision record 0098).
 */
export function effectivePercent(percent: string, capPercent: string, askedPercent: string | null): string {
  const own = basisPoints(percent);
  const asked = askedPercent === null ? 0n : basisPoints(askedPercent);
  const cap = basisPoints(capPercent);
  if (asked <= cap || asked === 0n) return trimmed(own * 100n);
  return trimmed((own * cap * 100n) / asked);
}

/** Ten-thousandths of a percent as a percent with two to four decimals. */
function trimmed(tenThousandths: bigint): string {
  const whole = tenThousandths / 10_000n;
  const fraction = String(tenThousandths % 10_000n)
    .padStart(4, '0')
    .replace(/0{1,2}$/, '');
  return `${whole}.${fraction}`;
}

/** The part of the base a refund of `refunded` of the paid `share` stands for, rounded down: what a REVERSED amount is taken back on. */
export function partOfBase(base: Minor, share: Minor, refunded: Minor): Minor {
  if (share <= 0) return 0;
  return Number((BigInt(base) * BigInt(Math.min(refunded, share))) / BigInt(share));
}

/** Nepal's offset from UTC, with no daylight saving: 5 h 45 min. */
const NEPAL_OFFSET_MS = 345 * 60_000;

/** An instant as a Nepal date and time, `2030-09-20 14:26`: the clock the period's month is counted in. */
export function nepalDateTime(at: Date): string {
  return new Date(at.getTime() + NEPAL_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The statement's number, `CST-<period>-<company>`: the same for every copy of one company's month
 * (a statement is read again and again while OPEN and after), the company by the first eight hex
 * digits of its id (decision record 0098).
 */
export function statementNumber(period: string, companyId: string): string {
  return `CST-${period}-${companyId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

/** Why a line is on the statement, in words (the legend explains each). */
export function roleInWords(role: CommissionRole, agentName: string | null): string {
  switch (role) {
    case 'SELLER':
      return 'Seller';
    case 'LISTED_AGENCY':
      return 'Listed agency';
    case 'CODE_OWNER':
      return 'Code owner';
    case 'AGENT':
      return `Agent: ${agentName ?? 'unnamed'}`;
  }
}
