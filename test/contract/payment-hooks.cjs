// Dredd hooks for the payment operations (loaded after test/contract/hooks.cjs, whose
// beforeEach sets the token and skips what it has no scenario for; these run later and decide
// for payOrder, getPaymentStatus, payGroup and handlePaymentCallback). Live fixtures come from
// test/contract/live-partner.cjs: orders and groups of the first sandbox partner and of a second
// company, started payments whose Idempotency-Key the 409 scenarios reuse with another body, and
// checkouts completed on the sandbox card gateway's hosted page, whose signed callbacks the
// callback transactions deliver.
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const RETURN_URL = 'https://booking.himalayantrails.example.com/payments/complete';
const fixtures = { error: undefined };

const orderPath = (identifier, suffix) => `${API}/orders/${encodeURIComponent(identifier)}${suffix}`;
const groupPath = (groupRef) => `${API}/orders/groups/${encodeURIComponent(groupRef)}/pay`;
function withBody(transaction, body) {
  transaction.request.body = JSON.stringify(body);
}
function withKey(transaction, key = randomUUID()) {
  transaction.request.headers['Idempotency-Key'] = key;
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [DEMO_PARTNERS[0], DEMO_PARTNERS[1]].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.caller = caller;
    fixtures.started = await caller.order();
    fixtures.unpaid = await caller.order();
    // payOrder 200 starts an attempt on `unpaid`; the lean payment-status read needs an order without one.
    fixtures.lean = await caller.order();
    fixtures.usedKey = randomUUID();
    await caller.pay(encodeURIComponent(fixtures.started.orderRef), { gateway: 'card_gateway' }, fixtures.usedKey);
    fixtures.othersOrder = await other.order();
    fixtures.othersGroup = await other.group();
    const paymentGroup = await caller.group();
    fixtures.groupPayment = await caller.pay(`groups/${encodeURIComponent(paymentGroup.groupRef)}`);
    fixtures.startedGroup = await caller.group();
    fixtures.usedGroupKey = randomUUID();
    await caller.pay(
      `groups/${encodeURIComponent(fixtures.startedGroup.groupRef)}`,
      { gateway: 'card_gateway' },
      fixtures.usedGroupKey,
    );
    fixtures.paidGroup = await caller.group();
    await caller.payInFull(`groups/${encodeURIComponent(fixtures.paidGroup.groupRef)}`);
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `payment contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

/** A checkout paid on the hosted page whose signed callback has not been delivered yet. */
async function undeliveredCallback(payBody) {
  const order = await fixtures.caller.order();
  const attempt = await fixtures.caller.pay(encodeURIComponent(order.orderRef), payBody);
  return fixtures.caller.checkout(attempt.paymentUrl);
}

const scenarios = {
  payOrder: {
    200: (t) => {
      onPath(t, orderPath(fixtures.unpaid.orderRef, '/pay'));
      withKey(t);
    },
    400: (t) => {
      onPath(t, orderPath(fixtures.unpaid.orderRef, '/pay'));
      withKey(t);
      withBody(t, { gateway: 'cash' });
    },
    403: (t) => {
      onPath(t, orderPath(fixtures.othersOrder.orderRef, '/pay'));
      withKey(t);
    },
    404: (t) => {
      onPath(t, orderPath('ORD-2026-999999', '/pay'));
      withKey(t);
    },
    409: (t) => {
      onPath(t, orderPath(fixtures.started.orderRef, '/pay'));
      withKey(t, fixtures.usedKey);
      withBody(t, { gateway: 'wallet_gateway' });
    },
  },
  getPaymentStatus: {
    // The first documented example is the lean shape: an order without any attempt yet.
    200: (t) => onPath(t, orderPath(fixtures.lean.orderRef, '/payment-status')),
    400: (t) => onPath(t, orderPath(fixtures.groupPayment.paymentRef, '/payment-status')),
    403: (t) => onPath(t, orderPath(fixtures.othersOrder.orderRef, '/payment-status')),
    404: (t) => onPath(t, orderPath('ORDN-2026-999999', '/payment-status')),
  },
  payGroup: {
    200: async (t) => {
      onPath(t, groupPath((await fixtures.caller.group()).groupRef));
      withKey(t);
    },
    // Every order of the group is paid already.
    400: (t) => {
      onPath(t, groupPath(fixtures.paidGroup.groupRef));
      withKey(t);
    },
    403: (t) => {
      onPath(t, groupPath(fixtures.othersGroup.groupRef));
      withKey(t);
    },
    404: (t) => withKey(t),
    409: (t) => {
      onPath(t, groupPath(fixtures.startedGroup.groupRef));
      withKey(t, fixtures.usedGroupKey);
      withBody(t, { gateway: 'wallet_gateway' });
    },
  },
  handlePaymentCallback: {
    // No returnUrl: the customer sees the plain result page.
    200: async (t) => onPath(t, await undeliveredCallback({ gateway: 'card_gateway' })),
    303: async (t) => onPath(t, await undeliveredCallback({ gateway: 'card_gateway', returnUrl: RETURN_URL })),
    // The example is a well-formed callback whose signature does not match: refused with 400.
    400: () => undefined,
  },
  handleProviderReturn: {
    // Dredd runs against the sandbox, where no payment is served by Khalti or eSewa: their
    // successful returns are exercised through the providers' simulators instead
    // (test/payments/live-providers.test.ts, gateway-port-contract.test.ts).
    200: (t) => {
      t.skip = true;
    },
    303: (t) => {
      t.skip = true;
    },
    // The example names a payment the server does not have: refused with 400.
    400: () => undefined,
  },
};

runScenarios(hooks, scenarios, fixtures);
