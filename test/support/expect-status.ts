import { inspect } from 'node:util';
import { serverLogPath } from './server-log';

/**
 * What a test reads a status from: ApiClient's answer (`body` parsed), a raw socket or fetch
 * answer whose text was read (`text`), or a fetch Response (its body still a stream).
 */
export interface Answered {
  status: number;
  body?: unknown;
  text?: unknown;
  headers?: unknown;
}

/** What the typed client (openapi-fetch) answers: the Response, and its body parsed into `data` or `error`. */
export interface ClientResult {
  response: { status: number };
  data?: unknown;
  error?: unknown;
}

/** Longer bodies (a checkout page) are cut: the head says what went wrong. */
const SHOWN_CHARACTERS = 4_000;

/**
 * Fails unless `response` answered `expected`, with the body it got in the message: a bare
 * `expect(response.status).toBe(200)` says only "received 400", and the problem document that
 * says why is lost.
 */
export function expectStatus(answer: Answered | ClientResult, expected: number): void {
  const response: Answered =
    'response' in answer ? { status: answer.response.status, body: answer.error ?? answer.data } : answer;
  if (response.status === expected) return;
  const log = serverLogPath();
  const logged = log ? `\nthe servers' log of this file (kept as a test failed): ${log}` : '';
  const failure = new Error(
    `expected status ${expected}, got ${response.status}; the body it got:\n${shownBody(response)}${logged}`,
  );
  // The stack starts at the test's line, not here.
  Error.captureStackTrace(failure, expectStatus);
  throw failure;
}

function shownBody(response: Answered): string {
  // A fetch Response has a text() method, not text: only a string read off the wire counts.
  const text = typeof response.text === 'string' ? response.text : undefined;
  const body = isStream(response.body) ? text : (response.body ?? text);
  if (body === undefined) return isStream(response.body) ? '(a stream the test did not read)' : '(none)';
  const shown = typeof body === 'string' ? body : asJson(body);
  return shown.length > SHOWN_CHARACTERS
    ? `${shown.slice(0, SHOWN_CHARACTERS)}… (${shown.length - SHOWN_CHARACTERS} more characters)`
    : shown;
}

/** A problem document reads best as the JSON it came as; what JSON cannot hold (a Buffer's cycle) is inspected. */
function asJson(body: unknown): string {
  try {
    return JSON.stringify(body, null, 2) ?? inspect(body);
  } catch {
    return inspect(body, { depth: 8 });
  }
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { getReader?: unknown }).getReader === 'function';
}
