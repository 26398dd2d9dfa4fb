/**
 * The one error type use cases throw. `shape` picks the contract's error shape (SPEC section 7):
 * `api` is shape 2 (validation and business errors), `auth` shape 1 (every 401), `upload` shape 3.
 */
export type ErrorShape = 'api' | 'auth' | 'upload';
export type FieldErrors = Record<string, string>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly shape: ErrorShape = 'api',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fieldErrors?: FieldErrors) => new AppError(400, message, fieldErrors);
export const unauthorized = (message: string) => new AppError(401, message, undefined, 'auth');
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, fieldErrors?: FieldErrors) => new AppError(409, message, fieldErrors);

/** Rejects with a field error on one field, the common case of a business-rule failure. */
export const invalidField = (field: string, message: string, summary = 'Validation failed') =>
  badRequest(summary, { [field]: message });

/** Error shape 3: a failure POST /documents detects in the upload itself (400, or 413 when too large). */
export const uploadRejected = (message: string, status = 400) => new AppError(status, message, undefined, 'upload');
