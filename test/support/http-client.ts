import { expectContract } from './contract';
import { documentViolations, serverBehind } from './prism';
import { expectDocumentedErrorCode } from './error-codes';

/**
 * A body as tests read it: JSON the client has already checked against the contract (see
 * `op`). Left untyped on purpose, like the no-unsafe-* rules for test/ in eslint.config.mjs:
 * typing it would restate the spec in every test. The one `any` of the tests lives here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WireJson = any;

export interface ApiResponse<T = WireJson> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
  /** A raw body sent as is (for malformed JSON tests); `body` is JSON-encoded otherwise. */
  raw?: string | FormData;
  /** Past `prism proxy` straight to the server: a request Prism cannot forward (see serverBehind). */
  direct?: boolean;
}

/** Real HTTP against a running server. */
export class ApiClient {
  /**
   * `freshConnections`: one connection per request. Prism (mock and mock:validate) now and then
   * drops a reused keep-alive connection ("other side closed"); our own server does not.
   */
  constructor(
    readonly baseUrl: string,
    private readonly freshConnections = process.env.PRISM_PROXY === '1',
  ) {}

  async call<T = WireJson>(
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    // Multipart bodies always: Prism would corrupt their bytes.
    const direct = options.direct || options.raw instanceof FormData;
    const url = new URL(path, direct ? serverBehind(this.baseUrl) : this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (this.freshConnections) headers.connection = 'close';
    let payload: string | FormData | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body: payload, redirect: 'manual' });
    failOnDocumentViolations(method, path, response);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    expectDocumentedErrorCode(method, path, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Calls an operation and checks the answer against the spec for its status. */
  async op<T = WireJson>(
    operationId: string,
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const response = await this.call<T>(method, path, body, options);
    await expectContract(
      operationId,
      response.status,
      response.body,
      response.headers.get('content-type') ?? undefined,
    );
    return response;
  }
}

/**
 * Under `npm run mock:validate` Prism reports what violates the document in `sl-violations`.
 * A violating response always fails the test. A violating request fails it only when the server
 * accepted it (2xx): tests send invalid requests on purpose, and the server must refuse them.
 */
function failOnDocumentViolations(method: string, path: string, response: Response): void {
  const errors = documentViolations(response.headers.get('sl-violations')).filter(
    (violation) => violation.severity === 'Error',
  );
  const wrong = errors.filter((violation) => violation.location[0] === 'response' || response.status < 300);
  if (wrong.length > 0) {
    throw new Error(
      `${method} ${path} (${response.status}) violates the document:\n${wrong.map((v) => `  ${v.location.join('.')}: ${v.message}`).join('\n')}`,
    );
  }
}
