import { expectContract } from './contract';

export interface ApiResponse<T = any> {
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
}

/** Real HTTP against a running server. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async call<T = any>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | FormData | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Calls an operation and checks the answer against the spec for its status. */
  async op<T = any>(operationId: string, method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const response = await this.call<T>(method, path, body, options);
    await expectContract(operationId, response.status, response.body);
    return response;
  }
}
