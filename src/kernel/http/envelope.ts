import { STATUS_CODES } from 'node:http';
import type { ErrorCode, FieldErrors } from '../errors';

/** Success envelope of SPEC section 2.1. */
export function successBody<T>(data: T, message = 'OK') {
  return { success: true as const, message, data, timestamp: new Date().toISOString() };
}

/** Error shape 1: every 401. No timestamp, by contract. */
export function authErrorBody(message: string, code: ErrorCode) {
  return { success: false as const, message, code, data: null };
}

/** Error shape 2: validation and business errors. */
export function apiErrorBody(
  status: number,
  message: string,
  code: ErrorCode,
  path: string,
  fieldErrors?: FieldErrors,
) {
  return {
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    code,
    path,
    timestamp: new Date().toISOString(),
    ...(fieldErrors && Object.keys(fieldErrors).length > 0 ? { details: { fieldErrors } } : {}),
  };
}

/** Error shape 3: failures POST /documents handles itself. */
export function uploadErrorBody(message: string, code: ErrorCode) {
  return { success: false as const, message, code, data: null, timestamp: new Date().toISOString() };
}
