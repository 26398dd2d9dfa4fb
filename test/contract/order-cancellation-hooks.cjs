// Dredd hooks for cancellation (issue 28), loaded after hooks.cjs (by file name order) (which sets the token and skips
// what it has no scenario for): previewOrderCancellation and cancelOrder on live orders of the
// first sandbox partner (a paid one, a cancelled one, a fresh paid one per cancellation), on
// another company's order (403 to cancel, 404 to preview) and on an unknown reference (404); the 409 reuses a key with
// another body. Every cancellation gets an Idempotency-Key of its own.
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };
const UNKNOWN_ORDER = 'ORD-2026-999999';

const previewPath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/cancellation/preview`;
const cancelPath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/cancellation`;
const withKey = (t, key = randomUUID()) => {
  t.request.headers['Idempotency-Key'] = key;
};
const cancelled = async (partner, orderRef, key = randomUUID(), reason = 'OTHER') =>
  partner.call('POST', cancelPath(orderRef), { body: { reason }, headers: { 'idempotency-key': key } });

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [DEMO_PARTNERS[0], DEMO_PARTNERS[1]].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.caller = caller;
    fixtures.paid = await caller.order();
    await caller.payInFull(encodeURIComponent(fixtures.paid.orderRef));
    fixtures.cancelled = await caller.order();
    await cancelled(caller, fixtures.cancelled.orderRef);
    fixtures.reusedKey = randomUUID();
    fixtures.keyed = await caller.order();
    await cancelled(caller, fixtures.keyed.orderRef, fixtures.reusedKey, 'OTHER');
    fixtures.othersOrder = await other.order();
    // Listed as an agency on another company's order: it may read it, not cancel it (403).
    fixtures.listedOrder = await other.order({ travelCompanyIds: [DEMO_PARTNERS[0].companyId] });
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `cancellation contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const scenarios = {
  previewOrderCancellation: {
    200: (t) => onPath(t, previewPath(fixtures.paid.orderRef)),
    // A stranger's order answers 404 like an unknown one (issue 40); a listed agency gets the 403.
    403: (t) => onPath(t, previewPath(fixtures.listedOrder.orderRef)),
    404: (t) => onPath(t, previewPath(fixtures.othersOrder.orderRef)),
  },
  cancelOrder: {
    200: async (t) => {
      const order = await fixtures.caller.order();
      await fixtures.caller.payInFull(encodeURIComponent(order.orderRef));
      withKey(t);
      onPath(t, cancelPath(order.orderRef));
    },
    400: (t) => {
      withKey(t);
      onPath(t, cancelPath(fixtures.cancelled.orderRef));
    },
    403: (t) => {
      withKey(t);
      onPath(t, cancelPath(fixtures.othersOrder.orderRef));
    },
    404: (t) => {
      withKey(t);
      onPath(t, cancelPath(UNKNOWN_ORDER));
    },
    // The key already cancelled this order with reason OTHER; the example body says TRIP_CANCELLED.
    409: (t) => {
      withKey(t, fixtures.reusedKey);
      onPath(t, cancelPath(fixtures.keyed.orderRef));
    },
  },
};

runScenarios(hooks, scenarios, fixtures);
