import { isCalendarDate } from '../../../kernel/business-date';
import { minorFromDecimalString, type Minor } from '../../../kernel/money';
import { normalizePromoCode } from './promo-slots';

/** What an operator asks for when creating a code (CLI flags as strings). */
export interface PromoDefinitionInput {
  code: string;
  ownerCompany?: string;
  ownerAgent?: string;
  percent?: string;
  amount?: string;
  validFrom?: string;
  validTo?: string;
  limit?: string;
}

export interface PromoDefinition {
  code: string;
  owner: { kind: 'COMPANY' | 'AGENT'; id: string };
  discount: { percent: string } | { amount: Minor };
  validFrom: string | null;
  validTo: string | null;
  usageLimit: number | null;
}

/** Letters, digits, `-` and `_`, as partners type them; at most 64 like the promo request. */
const CODE = /^[A-Z0-9][A-Z0-9_-]{0,63}$/;

/**
 * Checks a code definition and returns it normalised (code upper-case, percent with two
 * decimals, amount in minor units), or the list of problems. The database enforces the same
 * rules with check constraints; this gives the operator readable messages first.
 */
export function parsePromoDefinition(
  input: PromoDefinitionInput,
): { ok: true; value: PromoDefinition } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const code = normalizePromoCode(input.code);
  if (!CODE.test(code)) problems.push('--code must be 1 to 64 letters, digits, "-" or "_"');

  if ((input.ownerCompany === undefined) === (input.ownerAgent === undefined))
    problems.push('give exactly one of --owner-company and --owner-agent');
  const owner =
    input.ownerCompany !== undefined
      ? { kind: 'COMPANY' as const, id: input.ownerCompany }
      : { kind: 'AGENT' as const, id: input.ownerAgent ?? '' };

  let discount: PromoDefinition['discount'] = { percent: '0.00' };
  if ((input.percent === undefined) === (input.amount === undefined)) {
    problems.push('give exactly one of --percent and --amount');
  } else if (input.percent !== undefined) {
    const percent = /^\d{1,3}(\.\d{1,2})?$/.test(input.percent) ? Number(input.percent) : NaN;
    if (!(percent > 0 && percent <= 100))
      problems.push('--percent must be more than 0 and at most 100, with at most two decimals');
    else discount = { percent: percent.toFixed(2) };
  } else {
    const given = input.amount ?? '';
    const amount = /^\d{1,10}(\.\d{1,2})?$/.test(given) ? minorFromDecimalString(given) : 0;
    if (amount <= 0) problems.push('--amount must be a positive amount with at most two decimals');
    else discount = { amount };
  }

  for (const [flag, value] of [
    ['--valid-from', input.validFrom],
    ['--valid-to', input.validTo],
  ] as const) {
    if (value !== undefined && !isCalendarDate(value)) problems.push(`${flag} must be a date YYYY-MM-DD`);
  }
  if (
    input.validFrom &&
    input.validTo &&
    isCalendarDate(input.validFrom) &&
    isCalendarDate(input.validTo) &&
    input.validFrom > input.validTo
  ) {
    problems.push('--valid-from must not be after --valid-to');
  }

  let usageLimit: number | null = null;
  if (input.limit !== undefined) {
    usageLimit = /^\d+$/.test(input.limit) ? Number(input.limit) : NaN;
    if (!(Number.isSafeInteger(usageLimit) && usageLimit >= 1))
      problems.push('--limit must be a whole number of at least 1');
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: { code, owner, discount, validFrom: input.validFrom ?? null, validTo: input.validTo ?? null, usageLimit },
  };
}
