import fc from 'fast-check';
import { hostileString, mutate, SchemaResolver, wrongTypedValue, type SchemaNode } from './schema-arbitraries';
import { at } from '../support/elements';
import type { WireJson } from '../support/http-client';

/** One request of the fuzz run, fully materialised so that a failure can be printed and replayed. */
export interface FuzzRequest {
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What kind of input it is, for the run's tally. */
  kind: string;
}

/** Identifiers the fuzz caller owns, another company owns, and that exist nowhere. */
export interface KnownIdentifiers {
  own: Record<'orderRef' | 'groupRef', string[]>;
  foreign: Record<'orderRef' | 'groupRef', string[]>;
  ownToken: string;
  foreignToken: string;
  /** Real clientIds (for issueToken), none of whose secrets the fuzzer knows. */
  clientIds: string[];
  documentIds: string[];
  touristIds: string[];
  ctgIds: string[];
  routeIds: string[];
  promoCodes: string[];
}

export interface OperationModel {
  operationId: string;
  method: string;
  pathTemplate: string;
  secured: boolean;
  parameters: SchemaNode[];
  bodyContentType?: string;
  bodySchema?: SchemaNode;
  examples: unknown[];
}

/** Every operation of the document with what the fuzzer needs to build requests for it. */
export function operationsOf(document: WireJson): OperationModel[] {
  const resolver = new SchemaResolver(document);
  const models: OperationModel[] = [];
  for (const [pathTemplate, item] of Object.entries<WireJson>(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const content = operation.requestBody?.content ?? {};
      const bodyContentType = Object.keys(content)[0];
      const media = bodyContentType ? content[bodyContentType] : undefined;
      const examples = Object.values<WireJson>(media?.examples ?? {})
        .map((example) => resolver.resolve(example).value)
        .filter((v) => v !== undefined);
      const security = operation.security ?? document.security ?? [];
      models.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        secured: security.length > 0,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: SchemaNode) =>
          resolver.resolve(p),
        ),
        bodyContentType,
        bodySchema: media?.schema,
        examples,
      });
    }
  }
  return models;
}

/** Percent-encodes a path segment byte by byte; unlike encodeURIComponent it accepts lone surrogates. */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const TRAVERSALS = [
  '..',
  '../..',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fhealthz',
  '..;/..;/metrics',
  '%252e%252e%252f',
  '.%00.',
  '%c0%ae%c0%ae%c0%af',
];

/** A raw JSON-ish body that no schema mutation would produce: deep nesting, broken syntax, huge arrays. */
function hostileRawBody(): fc.Arbitrary<{ body: string; kind: string }> {
  return fc.oneof(
    fc
      .constantFrom(100, 5_000, 200_000)
      .map((depth) => ({ body: '['.repeat(depth) + ']'.repeat(depth), kind: `deep-array-${depth}` })),
    fc
      .constantFrom(100, 5_000, 100_000)
      .map((depth) => ({ body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), kind: `deep-object-${depth}` })),
    fc
      .constantFrom(
        '{',
        '{"a":',
        '{"a":1,}',
        "{'a':1}",
        '[1,2',
        '{"a":1}{"b":2}',
        'undefined',
        'NaN',
        '\uFEFF{}',
        '{"__proto__":{"isAdmin":true}}',
        '{"a":1,"a":2}',
        '0x10',
        '1e999',
        '"\\ud800"',
        '\u0000',
      )
      .map((body) => ({ body, kind: 'malformed-json' })),
    fc
      .constantFrom(10_000, 200_000)
      .map((n) => ({ body: JSON.stringify(Array.from({ length: n }, (_, i) => i)), kind: `huge-array-${n}` })),
    fc.constant({ body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }), kind: 'over-limit-body' }),
    fc.string({ unit: 'binary', maxLength: 200 }).map((body) => ({ body, kind: 'random-bytes' })),
    fc.constant({ body: '', kind: 'empty-body' }),
  );
}

/**
 * A valid body with JSON nested `depth` deep in a free-form field (`extraFields` of an order went
 * through validation and overflowed JSON.stringify at 6,000). Built as text: JSON.stringify itself
 * overflows on such a value.
 */
function deepInside(value: unknown, depth: number): { body: string; kind: string } {
  const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const target = Array.isArray(value) ? value[0] : value;
  const encoded = JSON.stringify(target) ?? 'null';
  const body =
    target && typeof target === 'object' && !Array.isArray(target)
      ? encoded.replace(/}$/, `${encoded === '{}' ? '' : ','}"extraFields":${deep}}`)
      : deep;
  return { body: Array.isArray(value) ? `[${body}]` : body, kind: `deep-in-body-${depth}` };
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=klingon',
  'application/vnd.api+json',
  'image/png',
  '*/*',
  ';;;',
];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Multipart bodies, well-formed and broken, for the upload operation. */
function multipartBody(): fc.Arbitrary<{ body: Buffer; contentType: string; kind: string }> {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
  const part = (name: string, value: string | Buffer, fileName?: string, type = 'application/octet-stream') =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName !== undefined ? `; filename="${fileName}"` : ''}\r\n${fileName !== undefined ? `Content-Type: ${type}\r\n` : ''}\r\n`,
      ),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const documentType = fc.oneof(fc.constantFrom('PASSPORT', 'AVATAR', 'SIGNATURE', 'VISA'), hostileString());
  const fileName = fc.oneof(
    fc.constantFrom(
      'passport.png',
      '../../../etc/passwd',
      '..\\..\\boot.ini',
      'a'.repeat(2000),
      'x.png\u0000.exe',
      '',
      '<script>.png',
      'नेपाल.png',
    ),
    fc.string({ maxLength: 30 }),
  );
  const bytes = fc.oneof(
    fc.constant(PNG),
    fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
    fc.constant(Buffer.from('%PDF-1.4\n<script>alert(1)</script>')),
    fc.constant(Buffer.alloc(0)),
  );
  const ct = `multipart/form-data; boundary=${boundary}`;
  return fc.oneof(
    fc.tuple(documentType, fileName, bytes).map(([t, n, b]) => ({
      body: Buffer.concat([part('documentType', t), part('file', b, n, 'image/png'), end]),
      contentType: ct,
      kind: 'multipart-form',
    })),
    fc.tuple(documentType, bytes).map(([t, b]) => ({
      body: Buffer.concat([part('documentType', t), part('file', b, 'p.png').subarray(0, 40 + (b.length >> 1))]),
      contentType: ct,
      kind: 'multipart-truncated',
    })),
    documentType.map((t) => ({
      body: Buffer.concat([part('documentType', t), end]),
      contentType: ct,
      kind: 'multipart-no-file',
    })),
    bytes.map((b) => ({
      body: Buffer.concat([part('file', b, 'p.png'), end]),
      contentType: ct,
      kind: 'multipart-no-type',
    })),
    bytes.map((b) => ({
      body: Buffer.concat([part('file', b, 'a.png'), part('file', b, 'b.png'), part('documentType', 'PASSPORT'), end]),
      contentType: ct,
      kind: 'multipart-two-files',
    })),
    fc.constant({
      body: Buffer.concat([part('documentType', 'PASSPORT'), part('file', PNG, 'p.png'), end]),
      contentType: 'multipart/form-data',
      kind: 'multipart-no-boundary',
    }),
    fc.constant({
      body: Buffer.concat([part('documentType', 'PASSPORT'), part('file', PNG, 'p.png'), end]),
      contentType: 'multipart/form-data; boundary=other',
      kind: 'multipart-wrong-boundary',
    }),
    fc.constant({
      body: Buffer.concat(Array.from({ length: 500 }, (_, i) => part(`f${i}`, 'x')).concat(end)),
      contentType: ct,
      kind: 'multipart-many-fields',
    }),
    fc.constant({
      body: Buffer.concat([part('documentType', 'x'.repeat(2 * 1024 * 1024)), end]),
      contentType: ct,
      kind: 'multipart-huge-field',
    }),
    fc
      .string({ unit: 'binary', maxLength: 300 })
      .map((s) => ({ body: Buffer.from(s), contentType: ct, kind: 'multipart-garbage' })),
    fc.constant({
      body: Buffer.from('{"documentType":"PASSPORT"}'),
      contentType: 'application/json',
      kind: 'multipart-as-json',
    }),
  );
}

/** Arbitrary requests for one operation: valid ones, invalid ones, and plain hostile ones. */
export function requestsFor(
  document: WireJson,
  model: OperationModel,
  ids: KnownIdentifiers,
): fc.Arbitrary<FuzzRequest> {
  const resolver = new SchemaResolver(document);
  const pathParams = model.parameters.filter((p) => p.in === 'path');
  const queryParams = model.parameters.filter((p) => p.in === 'query');
  const headerParams = model.parameters.filter((p) => p.in === 'header');

  const pathValue = (param: SchemaNode): fc.Arbitrary<{ value: string; kind: string }> => {
    const key = param.name === 'groupRef' ? 'groupRef' : 'orderRef';
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(...ids.own[key]).map((v) => ({ value: encodeSegment(v), kind: 'own-id' })),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...ids.foreign[key]).map((v) => ({ value: encodeSegment(v), kind: 'foreign-id' })),
      },
      {
        weight: 2,
        arbitrary: resolver.valid(param.schema).map((v) => ({ value: encodeSegment(String(v)), kind: 'schema-id' })),
      },
      { weight: 3, arbitrary: hostileString().map((v) => ({ value: encodeSegment(v), kind: 'hostile-id' })) },
      { weight: 2, arbitrary: fc.constantFrom(...TRAVERSALS).map((v) => ({ value: v, kind: 'traversal-id' })) },
    );
  };

  // A free-form object parameter (form style, exploded: `?utm_source=...&fbclid=...`) gives its entries as parameters of their own.
  const queryValue = (param: SchemaNode): fc.Arbitrary<string | Record<string, unknown> | undefined> =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      {
        weight: 4,
        arbitrary: resolver
          .valid(param.schema)
          .map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : String(v))),
      },
      { weight: 2, arbitrary: hostileString() },
      {
        weight: 1,
        arbitrary: wrongTypedValue().map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'))),
      },
    );

  const auth = fc.oneof(
    { weight: 14, arbitrary: fc.constant({ authorization: `Bearer ${ids.ownToken}`, kind: 'own-token' }) },
    { weight: 1, arbitrary: fc.constant({ authorization: `Bearer ${ids.foreignToken}`, kind: 'foreign-token' }) },
    { weight: 1, arbitrary: fc.constant({ authorization: undefined, kind: 'no-token' }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          hostileString().map((s) => `Bearer ${s}`),
          fc.constantFrom(
            'Bearer',
            'Bearer ',
            `Basic ${Buffer.from('a:b').toString('base64')}`,
            `bearer ${ids.ownToken}x`,
            `Bearer ${ids.ownToken} ${ids.ownToken}`,
            'Bearer ' + "' OR 1=1 --",
            `Token ${ids.ownToken}`,
          ),
        )
        .filter((value) => !/[\r\n\u0000]/.test(value) && /^[\x20-\x7e]*$/.test(value))
        .map((authorization) => ({ authorization, kind: 'bad-token' })),
    },
  );

  const body: fc.Arbitrary<{ body?: string | Buffer; contentType?: string; kind: string }> = (() => {
    if (!model.bodyContentType) {
      return fc.oneof(
        { weight: 8, arbitrary: fc.constant({ kind: 'no-body' }) },
        {
          weight: 1,
          arbitrary: hostileRawBody().map(({ body, kind }) => ({
            body,
            contentType: 'application/json',
            kind: `unexpected-${kind}`,
          })),
        },
      );
    }
    if (model.bodyContentType.startsWith('multipart/')) return multipartBody();
    const generated =
      model.examples.length > 0
        ? fc.oneof(fc.constantFrom(...model.examples), resolver.valid(model.bodySchema))
        : resolver.valid(model.bodySchema);
    // Real identifiers (own and foreign) in half of the bodies, so that requests get past the lookups.
    const valid = fc
      .tuple(generated, fc.boolean(), fc.nat())
      .map(([value, real, pick]) => (real ? withKnownIdentifiers(value, ids, pick) : value));
    const json = (kind: string) => (value: unknown) => ({
      body: JSON.stringify(value) ?? 'null',
      contentType: 'application/json',
      kind,
    });
    return fc.oneof(
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(33, 6_000, 100_000))
          .map(([value, depth]) => ({ ...deepInside(value, depth), contentType: 'application/json' })),
      },
      { weight: 4, arbitrary: valid.map(json('valid-body')) },
      { weight: 5, arbitrary: valid.chain((value) => mutate(value)).map(json('mutated-body')) },
      {
        weight: 2,
        arbitrary: hostileRawBody().map(({ body, kind }) => ({ body, contentType: 'application/json', kind })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(...WRONG_CONTENT_TYPES, undefined))
          .map(([value, contentType]) => ({ body: JSON.stringify(value), contentType, kind: 'wrong-content-type' })),
      },
    );
  })();

  return fc
    .record({
      path: fc.tuple(...pathParams.map(pathValue)),
      query: fc.tuple(...queryParams.map((p) => queryValue(p).map((value) => [p.name as string, value] as const))),
      extraQuery: fc.option(
        fc.tuple(fc.constantFrom('page', 'size', 'sortBy', '__proto__', 'q[$ne]', 'gateway'), hostileString()),
        { freq: 6 },
      ),
      idempotencyKey: fc.oneof(
        { weight: 6, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: hostileString() },
      ),
      auth,
      body,
    })
    .map(({ path, query, extraQuery, idempotencyKey, auth: credential, body: payload }) => {
      let url = model.pathTemplate;
      pathParams.forEach((param, i) => {
        url = url.replace(`{${param.name}}`, at(path, i, 'the path values').value);
      });
      const search = new URLSearchParams();
      for (const [name, value] of query) {
        if (typeof value === 'string') search.append(name, value);
        else if (value !== undefined)
          for (const [key, entry] of Object.entries(value))
            search.append(key, typeof entry === 'string' ? entry : (JSON.stringify(entry) ?? ''));
      }
      if (extraQuery) search.append(extraQuery[0], extraQuery[1]);
      const queryString = search.toString();
      const headers: Record<string, string> = {};
      if (model.secured && credential.authorization) headers.authorization = credential.authorization;
      if (
        headerParams.some((p) => p.name === 'Idempotency-Key') &&
        idempotencyKey !== undefined &&
        /^[\x20-\x7e]*$/.test(idempotencyKey)
      )
        headers['idempotency-key'] = idempotencyKey;
      if (payload.contentType) headers['content-type'] = payload.contentType;
      const kinds = [payload.kind, ...path.map((p) => p.kind), model.secured ? credential.kind : 'public'];
      return {
        operationId: model.operationId,
        method: model.method,
        path: queryString ? `${url}?${queryString}` : url,
        headers,
        body: payload.body,
        kind: kinds.join('+'),
      };
    });
}

const IDENTIFIER_FIELDS: Record<string, keyof KnownIdentifiers> = {
  touristId: 'touristIds',
  ctgId: 'ctgIds',
  routeId: 'routeIds',
  promoCode: 'promoCodes',
  clientId: 'clientIds',
  avatarDocumentId: 'documentIds',
  passportDocumentId: 'documentIds',
  signatureDocumentId: 'documentIds',
  visaDocumentId: 'documentIds',
};

/** Replaces identifier fields anywhere in a body with identifiers that exist. */
function withKnownIdentifiers(value: unknown, ids: KnownIdentifiers, pick: number): unknown {
  if (Array.isArray(value)) return value.map((item, i) => withKnownIdentifiers(item, ids, pick + i));
  if (!value || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const pool = IDENTIFIER_FIELDS[key] ? (ids[IDENTIFIER_FIELDS[key]] as string[]) : undefined;
    copy[key] = pool && pool.length > 0 ? pool[pick % pool.length] : withKnownIdentifiers(child, ids, pick);
  }
  return copy;
}

const SANDBOX_TRAVERSALS = [
  'ab%00cd',
  '%ff%fe',
  '%c0%ae%c0%ae%c0%af',
  '..%2f..%2fhealthz',
  '%00',
  'ORD-2026-000001-%0a%1b%5b2J',
];

/**
 * Requests outside the document: the sandbox gateways' hosted checkout pages (real and hostile
 * payment references, hostile form posts) and paths no route serves. They must never answer 5xx.
 */
export function pageRequests(paymentUrls: string[]): fc.Arbitrary<FuzzRequest> {
  const real = paymentUrls.map((url) => new URL(url).pathname);
  const path = fc.oneof(
    fc.constantFrom(...real).map((p) => ({ path: p, kind: 'sandbox-real' })),
    fc
      .tuple(
        fc.constantFrom('card_gateway', 'wallet_gateway', 'cash', '%ff', '..'),
        fc.oneof(fc.constantFrom(...SANDBOX_TRAVERSALS), hostileString().map(encodeSegment)),
      )
      .map(([gateway, ref]) => ({ path: `/sandbox/${gateway}/checkout/${ref}`, kind: 'sandbox-hostile' })),
    fc
      .oneof(
        fc.constantFrom('/%ff%fe', '/%00', '/docs%00', '/api/external/v2/orders', '/api/external/payment/%ff'),
        hostileString().map((v) => `/${encodeSegment(v)}`),
      )
      .map((p) => ({ path: p, kind: 'unknown-path' })),
  );
  const form = fc.oneof(
    fc.constantFrom(
      'action=cancel',
      'action=pay&cardNumber=4242424242424242&expiry=12%2F40&cvv=123',
      'action=pay&walletId=9800000001&pin=1234',
      'action=%00',
      'action=pay&cardNumber=4242%00',
    ),
    fc
      .tuple(fc.constantFrom('action', 'cardNumber', 'walletId', 'pin', 'expiry', 'cvv', '__proto__'), hostileString())
      .map(([k, v]) => `action=pay&${k}=${encodeSegment(v)}`),
    fc.string({ unit: 'binary', maxLength: 300 }),
  );
  return fc.tuple(path, fc.constantFrom('GET', 'POST'), form).map(([{ path: p, kind }, method, body]): FuzzRequest => {
    const headers: Record<string, string> =
      method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
    return {
      operationId: kind === 'unknown-path' ? 'unknownPath' : 'sandboxCheckout',
      method,
      path: p,
      headers,
      body: method === 'POST' ? body : undefined,
      kind,
    };
  });
}
