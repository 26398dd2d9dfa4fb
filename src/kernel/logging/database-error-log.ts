import { DriverException } from '@mikro-orm/core';
import { DatabaseError } from 'pg';
import { stringField } from '../narrow';

/**
 * What a log line may keep of a database error. Its message is the failed statement with every
 * parameter written into it ("insert into insurance_order ... values (..., '{"passportNumber":
 * ...}') - duplicate key ... - detail: Key (company_id)=(...) already exists."): no part of it can
 * be cut out safely, since a value may hold the very separators. Kept instead: the error's class,
 * the SQLSTATE, the names of the schema objects involved and the stack frames, which say what
 * failed and where without saying with which data.
 */
const NAMED_PARTS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

export function isDatabaseError(error: unknown): error is Error {
  return error instanceof DriverException || error instanceof DatabaseError;
}

export function databaseErrorForLog(error: Error): Record<string, unknown> {
  const named = Object.fromEntries(
    NAMED_PARTS.flatMap((key) => {
      const part = stringField(error, key);
      return part === undefined ? [] : [[key, part]];
    }),
  );
  return {
    type: error.name,
    message: `${error.name} (statement and values not logged)`,
    ...named,
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => line.trim().startsWith('at '))
      .join('\n'),
  };
}
