// Dredd hooks for the webhook endpoint and delivery operations (loaded after
// test/contract/hooks.cjs, whose beforeEach puts the first sandbox partner's token on every
// request and skips what it has no scenario for). That partner gets four endpoints first (the
// fifth is the example's own POST, within the limit of 5): one to read and change, one to
// delete, one to rotate, test and retry, and a disabled one whose delivery a retry refuses (409).
// The 400s answered with the shared BadRequest response stay skipped (Dredd wants its example's
// keys, `sortBy` and `page`); test/webhooks covers them.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };
const ENDPOINTS = `${API}/webhook-endpoints`;
const DELIVERIES = `${API}/webhook-deliveries`;
const UNKNOWN = '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f';

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const caller = await signedInPartner(baseUrl, DEMO_PARTNERS[0]);
    const register = async (name) =>
      (
        await caller.call('POST', ENDPOINTS, {
          body: { url: `https://hooks.everest-trails.example.com/dredd/${name}`, events: ['*'] },
        })
      ).endpointId;
    fixtures.endpoint = await register('read');
    fixtures.toDelete = await register('delete');
    fixtures.live = await register('live');
    fixtures.disabled = await register('disabled');
    fixtures.delivery = (await caller.call('POST', `${ENDPOINTS}/${fixtures.live}/test`)).deliveryId;
    fixtures.refusedDelivery = (await caller.call('POST', `${ENDPOINTS}/${fixtures.disabled}/test`)).deliveryId;
    await caller.call('PATCH', `${ENDPOINTS}/${fixtures.disabled}`, { body: { enabled: false } });
    fixtures.event = (await caller.call('GET', `${API}/events?size=1`)).content[0].eventId;
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `webhook contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const body = (transaction, value) => {
  transaction.request.body = JSON.stringify(value);
};

const scenarios = {
  createWebhookEndpoint: {
    201: () => undefined,
    // Dredd compares keys with the example's: its field error is on `url` (the sandbox takes private addresses, not other schemes).
    400: (t) => body(t, { url: 'ftp://hooks.everest-trails.example.com/pbs', events: ['*'] }),
  },
  listWebhookEndpoints: { 200: () => undefined },
  getWebhookEndpoint: {
    200: (t) => onPath(t, `${ENDPOINTS}/${fixtures.endpoint}`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}`),
  },
  updateWebhookEndpoint: {
    200: (t) => onPath(t, `${ENDPOINTS}/${fixtures.endpoint}`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}`),
  },
  deleteWebhookEndpoint: {
    200: (t) => onPath(t, `${ENDPOINTS}/${fixtures.toDelete}`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}`),
  },
  rotateWebhookEndpointSecret: {
    200: (t) => onPath(t, `${ENDPOINTS}/${fixtures.live}/rotate-secret`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}/rotate-secret`),
  },
  testWebhookEndpoint: {
    202: (t) => onPath(t, `${ENDPOINTS}/${fixtures.live}/test`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}/test`),
  },
  listWebhookDeliveries: {
    200: (t) => onPath(t, DELIVERIES),
  },
  listEvents: {
    // Test events only: the example's item is one, and Dredd wants its keys.
    200: (t) => onPath(t, `${API}/events?type=webhook.test`),
    400: (t) => onPath(t, `${API}/events?createdFrom=2030-10-01T00:00:00Z&createdTo=2030-09-01T00:00:00Z`),
  },
  replayWebhookEndpoint: {
    202: (t) => onPath(t, `${ENDPOINTS}/${fixtures.live}/replay`),
    404: (t) => onPath(t, `${ENDPOINTS}/${UNKNOWN}/replay`),
    409: (t) => onPath(t, `${ENDPOINTS}/${fixtures.disabled}/replay`),
  },
  getEvent: {
    200: (t) => onPath(t, `${API}/events/${fixtures.event}`),
    404: (t) => onPath(t, `${API}/events/evt_00000000000000000000000000000000`),
  },
  retryWebhookDelivery: {
    202: (t) => onPath(t, `${DELIVERIES}/${fixtures.delivery}/retry`),
    404: (t) => onPath(t, `${DELIVERIES}/${UNKNOWN}/retry`),
    409: (t) => onPath(t, `${DELIVERIES}/${fixtures.refusedDelivery}/retry`),
  },
};

runScenarios(hooks, scenarios, fixtures);
