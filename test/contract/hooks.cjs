// Dredd hooks (run by test/contract/run-dredd.mjs). Dredd builds one transaction per documented
// response from the document's examples; these hooks make them runnable against a live server:
//  - transactions of operations without a handler are skipped; the implemented set is read
//    from the built handler table, so an operation is exercised as soon as its handler lands;
//  - a bearer token of a sandbox partner goes on every request of a secured operation;
//  - request data an example cannot carry (a start date in the future, a seeded route id, live
//    documents) is filled in from the live server;
//  - an error response runs only where a scenario produces it; every other non-2xx transaction
//    is skipped here. order-hooks.cjs and payment-hooks.cjs (loaded after this file) take over
//    their own operations; what stays skipped (500, readyz 503, the database outage 503s of issue 30) is listed in
//    docs/decisions/0020-dredd-reads-the-3-1-document-as-it-is.md and docs/decisions/0059-going-live-checked-a-database-outage-is-a-503-not-a-500.md.
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const hooks = require('hooks');

const root = path.resolve(__dirname, '../..');
const document = require(path.join(root, 'generated/openapi.json'));
const { operationHandlers } = require(path.join(root, 'dist/src/app.js'));
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));
const documentScenarios = require('./document-scenarios.cjs');

const baseUrl = process.env.DREDD_BASE_URL;
if (!baseUrl) throw new Error('DREDD_BASE_URL is not set: run Dredd through npm run test:contract');

const implemented = new Set(Object.keys(operationHandlers));
const partner = DEMO_PARTNERS[0];
const fixtures = { token: undefined, routeId: undefined, error: undefined };
/** The documented Idempotency-Key of the creates (POST /orders, /travellers, /documents, /webhook-endpoints). */
const CREATE_KEY_EXAMPLE = document.components.parameters.CreateIdempotencyKey.example;

/** "POST /api/external/v1/reference/quote" -> the operation object of the document. */
const operations = new Map();
for (const [template, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (operation && operation.operationId) operations.set(`${method.toUpperCase()} ${template}`, operation);
  }
}

const operationOf = (transaction) => operations.get(`${transaction.request.method} ${transaction.origin.resourceName}`);
const isSecured = (operation) =>
  (operation.security ?? document.security ?? []).some((requirement) => 'bearerAuth' in requirement);

/** A date `days` from now, far enough ahead that it is not in the past in Kathmandu either. */
function futureDate(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function editBody(transaction, edit) {
  const body = JSON.parse(transaction.request.body);
  edit(body);
  transaction.request.body = JSON.stringify(body);
}

function editQuery(transaction, edit) {
  const url = new URL(transaction.fullPath, 'http://dredd.invalid');
  edit(url.searchParams);
  transaction.fullPath = `${url.pathname}${url.search}`;
  transaction.request.uri = transaction.fullPath;
}

function withoutToken(transaction) {
  delete transaction.request.headers.Authorization;
}

// A quote of the examples, moved into the future (examples carry fixed dates).
function futureTrip(body) {
  const start = futureDate(30);
  if (body.endDate !== undefined) body.endDate = futureDate(30 + 14);
  body.startDate = start;
}

/**
 * How each (operationId, status) is produced. A 2xx without an entry runs the example as it is;
 * a 401 of a secured operation without an entry runs without the token; anything else without
 * an entry is skipped.
 */
const scenarios = {
  issueToken: {
    200: (t) =>
      editBody(t, (b) => Object.assign(b, { clientId: partner.clientId, clientSecret: partner.clientSecret })),
    400: (t) => editBody(t, (b) => Object.assign(b, { clientId: partner.clientId, clientSecret: '   ' })),
    401: (t) => editBody(t, (b) => Object.assign(b, { clientId: partner.clientId, clientSecret: 'not-the-secret' })),
    // Wrong secrets for one clientId from one address are limited per window
    // (RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS, 20 by default): use up the limit of a clientId of its
    // own, so no other transaction is throttled.
    429: async (t) => {
      const clientId = `dredd-throttled-${randomUUID()}`;
      for (let answer = 0; answer !== 429;) {
        answer = (
          await fetch(`${baseUrl}/api/external/v1/auth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId, clientSecret: 'not-the-secret' }),
          })
        ).status;
        if (answer !== 401 && answer !== 429) throw new Error(`token request answered ${answer}`);
      }
      editBody(t, (b) => Object.assign(b, { clientId, clientSecret: 'not-the-secret' }));
    },
  },
  createQuote: {
    200: (t) =>
      editBody(t, (b) => {
        futureTrip(b);
        b.routeId = fixtures.routeId;
      }),
    // The example: a start date already past and both trip-length fields.
    400: (t) =>
      editBody(t, (b) => {
        b.routeId = fixtures.routeId;
        b.startDate = futureDate(-3);
        b.endDate = futureDate(10);
      }),
    // A routeId that is not in the catalogue (the example names the seeded Everest Base Camp).
    404: (t) =>
      editBody(t, (b) => {
        futureTrip(b);
        b.routeId = randomUUID();
      }),
  },
  // The example filters (Island Peak, HIGH, ...) select nothing in the seed; list the whole first page.
  listCtgs: {
    200: (t) =>
      editQuery(t, (q) =>
        ['search', 'altitudeBand', 'durationBand', 'ageBand', 'productType'].forEach((name) => q.delete(name)),
      ),
    400: (t) => editQuery(t, (q) => q.set('sortBy', 'premium')),
  },
  listRoutes: {
    200: (t) =>
      editQuery(t, (q) => ['region', 'trekName', 'routeType', 'routeCategory'].forEach((name) => q.delete(name))),
    400: (t) => editQuery(t, (q) => q.set('sortBy', 'altitude')),
  },
  ...documentScenarios.scenarios,
};

async function call(method, route, { token, body } = {}) {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = await response.json();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data;
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const issued = await call('POST', '/api/external/v1/auth/token', {
      body: { clientId: partner.clientId, clientSecret: partner.clientSecret },
    });
    fixtures.token = issued.accessToken;
    await documentScenarios.prepare(baseUrl, fixtures.token);
    const routes = await call('GET', '/api/external/v1/reference/routes?search=Everest%20Base%20Camp', {
      token: fixtures.token,
    });
    if (!routes.content?.length) throw new Error('the seeded catalogue has no Everest Base Camp route');
    fixtures.routeId = routes.content[0].routeId;
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

hooks.beforeEach((transaction, done) => {
  if (fixtures.error) {
    transaction.fail = fixtures.error;
    return done();
  }
  const operation = operationOf(transaction);
  const status = Number(transaction.expected.statusCode);
  if (!operation) {
    transaction.fail = `no operation in the document for ${transaction.request.method} ${transaction.origin.resourceName}`;
    return done();
  }
  if (!implemented.has(operation.operationId)) {
    transaction.skip = true;
    return done();
  }
  const secured = isSecured(operation);
  if (secured) transaction.request.headers.Authorization = `Bearer ${fixtures.token}`;
  // The creates' documented Idempotency-Key is one example: each transaction its own key, or the
  // second create of an operation (another body, another status) would be the first one's 409.
  if (transaction.request.headers['Idempotency-Key'] === CREATE_KEY_EXAMPLE)
    transaction.request.headers['Idempotency-Key'] = randomUUID();

  const scenario = scenarios[operation.operationId]?.[status];
  if (scenario) {
    return Promise.resolve()
      .then(() => scenario(transaction))
      .then(
        () => done(),
        (error) => {
          transaction.fail = `fixture for ${operation.operationId} ${status} failed: ${error.message}`;
          done();
        },
      );
  }
  if (status === 401 && secured) withoutToken(transaction);
  else if (status < 200 || status >= 300) transaction.skip = true;
  return done();
});

// Express sends "application/json; charset=utf-8"; Dredd 14 compares Content-Type as an exact
// string. Accept the parameters when the media type itself is the documented one.
const mediaType = (value) => String(value).split(';')[0].trim().toLowerCase();
hooks.beforeEachValidation((transaction, done) => {
  const expected = transaction.expected.headers?.['Content-Type'];
  const actual = transaction.real?.headers?.['content-type'];
  if (expected && actual && mediaType(expected) === mediaType(actual))
    transaction.expected.headers['Content-Type'] = actual;
  // Idempotency-Replayed is documented on the success of every keyed create, and sent only on a
  // replay (decision record 0096); Dredd takes every documented header as required.
  if (transaction.expected.headers && !transaction.real?.headers?.['idempotency-replayed'])
    delete transaction.expected.headers['Idempotency-Replayed'];
  return done();
});
