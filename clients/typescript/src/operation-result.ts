import type { FetchResponse } from 'openapi-fetch';
import type { operations } from './generated/api';

/**
 * What a helper answers for one operation of the contract: openapi-fetch's `{ data, error,
 * response }`, `data` the operation's JSON success body and `error` its JSON error body. Helpers
 * declare it instead of letting their type be inferred: an inferred one is written into the
 * published declarations as `createClient.FetchResponse<…>`, which a consumer's TypeScript cannot
 * resolve on openapi-fetch's default export (and which reads as `any` under skipLibCheck).
 */
export type OperationResult<OperationId extends keyof operations> = FetchResponse<
  operations[OperationId],
  { parseAs?: 'json' },
  `${string}/${string}`
>;

/** The refusal of an operation: its JSON error body (an `ApiError`, or the upload's error shape). */
export type OperationError<OperationId extends keyof operations> = NonNullable<OperationResult<OperationId>['error']>;

/** A CSV export (GET /orders or GET /refunds with `Accept: text/csv`): the file as a stream, or the refusal. */
export type CsvExportResult<Failure> =
  | { ok: true; stream: ReadableStream<Uint8Array>; fileName: string | undefined; response: Response }
  | { ok: false; error: Failure; response: Response };

/** The answer of a list asked for as CSV (`parseAs: 'stream'`), with the file name the service suggests. */
export function csvExport<Failure>(
  what: string,
  answer: { data?: ReadableStream<Uint8Array> | null; error?: Failure; response: Response },
): CsvExportResult<Failure> {
  const { data, error, response } = answer;
  if (error !== undefined) return { ok: false, error, response };
  if (!data) throw new Error(`${what} as CSV answered ${response.status} without a body`);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { ok: true, stream: data, fileName, response };
}
