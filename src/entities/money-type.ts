import { Type } from '@mikro-orm/core';
import { decimalStringFromMinor, minorFromDecimalString, type Minor } from '../domain/money';

/** numeric(12,2) in PostgreSQL, integer minor units in TypeScript. */
export class MoneyType extends Type<Minor, string> {
  override convertToDatabaseValue(value: Minor | string): string {
    return typeof value === 'string' ? value : decimalStringFromMinor(value);
  }

  override convertToJSValue(value: Minor | string): Minor {
    return typeof value === 'number' ? value : minorFromDecimalString(value);
  }

  override compareAsType(): string {
    return 'number';
  }

  override getColumnType(): string {
    return 'numeric(12,2)';
  }
}
