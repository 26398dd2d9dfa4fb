import { Type } from '@mikro-orm/core';
import { decimalStringFromMinor, minorFromDecimalString, type Minor } from '../money';

/** numeric(14,2) in PostgreSQL (see MONEY_MAXIMUMS for why 14 digits), integer minor units in TypeScript; null stays null in nullable columns. */
export class MoneyType extends Type<Minor | null | undefined, string | null | undefined> {
  override convertToDatabaseValue(value: Minor | string | null | undefined): string | null | undefined {
    if (value === null || value === undefined) return value;
    return typeof value === 'string' ? value : decimalStringFromMinor(value);
  }

  override convertToJSValue(value: Minor | string | null | undefined): Minor | null | undefined {
    if (value === null || value === undefined) return value;
    return typeof value === 'number' ? value : minorFromDecimalString(value);
  }

  override compareAsType(): string {
    return 'number';
  }

  override getColumnType(): string {
    return 'numeric(14,2)';
  }
}
