// Dredd hooks for the sandbox helpers (issue 37, decision record 0083), loaded after hooks.cjs
// (which puts the first sandbox partner's token on every request and skips what it has no
// scenario for): each outcome on a live payment or refund of that partner (an open card payment,
// one already decided, a MANUAL wallet refund, one already FAILED), an unknown reference (404),
// the clock set to today and removed right after (so no later transaction runs on it), and an
// event about a live order. `Sandbox-Today` is documented for answers while a clock is set: it is
// not expected of the others.
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };

const paymentOutcome = (paymentRef) => `${API}/sandbox/payments/${encodeURIComponent(paymentRef)}/outcome`;
const refundOutcome = (refundRef) => `${API}/sandbox/refunds/${encodeURIComponent(refundRef)}/outcome`;
const caseDecision = (caseRef) => `${API}/sandbox/assistance-cases/${encodeURIComponent(caseRef)}/decision`;

/** A case RECEIVED on a paid order (and so a traveller) of its own, for the desk helper to move. */
async function receivedCase(caller) {
  const order = await caller.order();
  await caller.payInFull(encodeURIComponent(order.orderRef));
  return caller.call('POST', `${API}/orders/${encodeURIComponent(order.orderRef)}/assistance-cases`, {
    body: {
      category: 'ALTITUDE_SICKNESS',
      requestedService: 'HELICOPTER_EVACUATION',
      location: { latitude: 27.9881, longitude: 86.925, placeName: 'Gorak Shep lodge' },
      altitudeMeters: 5164,
      summary: 'Suspected HACE; cannot walk down.',
      reporter: { name: 'Pemba Sherpa', phone: '+977 9841 234567', role: 'GUIDE' },
    },
    headers: { 'idempotency-key': randomUUID() },
  });
}

/** A payment of a fresh order of the caller's, still open at the sandbox gateway. */
async function openPayment(caller, gateway = 'card_gateway') {
  const order = await caller.order();
  return (await caller.pay(encodeURIComponent(order.orderRef), { gateway })).paymentRef;
}

/** A paid wallet order cancelled in its free look: the sandbox wallet refunds by hand, MANUAL. */
async function manualRefund(caller) {
  const order = await caller.order();
  const paymentRef = await caller
    .pay(encodeURIComponent(order.orderRef), { gateway: 'wallet_gateway' })
    .then((attempt) => attempt.paymentRef);
  await caller.call('POST', paymentOutcome(paymentRef), { body: { outcome: 'CAPTURED' } });
  const cancelled = await caller.call('POST', `${API}/orders/${encodeURIComponent(order.orderRef)}/cancellation`, {
    body: { reason: 'OTHER' },
    headers: { 'idempotency-key': randomUUID() },
  });
  return { refundRef: cancelled.refund.refundRef, orderRef: order.orderRef };
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const caller = await signedInPartner(baseUrl, DEMO_PARTNERS[0]);
    fixtures.caller = caller;
    fixtures.openPayment = await openPayment(caller);
    fixtures.decidedPayment = await openPayment(caller);
    await caller.call('POST', paymentOutcome(fixtures.decidedPayment), { body: { outcome: 'DECLINED' } });
    fixtures.manualRefund = (await manualRefund(caller)).refundRef;
    const failed = await manualRefund(caller);
    fixtures.failedRefund = failed.refundRef;
    // A test event about an order is built from its real refund: this order has one.
    fixtures.refundedOrder = failed.orderRef;
    await caller.call('POST', refundOutcome(fixtures.failedRefund), { body: { outcome: 'FAILED' } });
    fixtures.order = await caller.order();
    fixtures.case = await receivedCase(caller);
    // The documented answer is a case authorised after a partner's update and the desk's review:
    // this one lives the same life, so that the answer has the example's keys.
    const caseRef = encodeURIComponent(fixtures.case.caseRef);
    await caller.call('POST', `${API}/assistance-cases/${caseRef}/updates`, {
      body: {
        note: 'Descended to Lobuche with the guide; still vomiting, SpO2 71 %.',
        location: { latitude: 27.9478, longitude: 86.8105, placeName: 'Lobuche' },
        altitudeMeters: 4940,
      },
    });
    await caller.call('POST', caseDecision(fixtures.case.caseRef), { body: { decision: 'UNDER_REVIEW' } });
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `sandbox fixtures failed: ${error.message}`;
      done();
    },
  );
});

const withoutClockHeader = (t) => {
  delete t.expected.headers['Sandbox-Today'];
};

const scenarios = {
  setSandboxPaymentOutcome: {
    200: (t) => {
      onPath(t, paymentOutcome(fixtures.openPayment));
      t.request.body = JSON.stringify({ outcome: 'CAPTURED' });
      withoutClockHeader(t);
    },
    404: () => {},
    409: (t) => onPath(t, paymentOutcome(fixtures.decidedPayment)),
  },
  setSandboxRefundOutcome: {
    200: (t) => {
      onPath(t, refundOutcome(fixtures.manualRefund));
      withoutClockHeader(t);
    },
    404: () => {},
    409: (t) => onPath(t, refundOutcome(fixtures.failedRefund)),
  },
  setSandboxAssistanceCaseDecision: {
    200: (t) => {
      onPath(t, caseDecision(fixtures.case.caseRef));
      t.request.body = JSON.stringify({ decision: 'AUTHORISED' });
      withoutClockHeader(t);
    },
    404: () => {},
    // Neither UNDER_REVIEW nor AUTHORISED (whichever ran first) can be closed.
    409: (t) => {
      onPath(t, caseDecision(fixtures.case.caseRef));
      t.request.body = JSON.stringify({ decision: 'CLOSED' });
    },
  },
  getSandboxClock: { 200: withoutClockHeader },
  // Today's real date: nothing the partner's later transactions judge moves.
  setSandboxClock: {
    200: (t) => {
      t.request.body = JSON.stringify({ today: new Date(Date.now() + 5.75 * 3_600_000).toISOString().slice(0, 10) });
    },
  },
  deleteSandboxClock: { 200: () => {} },
  sendSandboxEvent: {
    202: (t) => {
      t.request.body = JSON.stringify({ type: 'refund.failed', orderRef: fixtures.refundedOrder });
      withoutClockHeader(t);
    },
    // An order never paid has no refund to build a refund event from.
    409: (t) => {
      t.request.body = JSON.stringify({ type: 'refund.failed', orderRef: fixtures.order.orderRef });
    },
  },
};

runScenarios(hooks, scenarios, fixtures);

// Whatever the order Dredd runs them in, no transaction after the clock's runs on it.
hooks.afterEach((transaction, done) => {
  if (
    transaction.request.method !== 'PUT' ||
    transaction.origin.resourceName !== `${API}/sandbox/clock` ||
    !fixtures.caller
  )
    return done();
  fixtures.caller.send('DELETE', `${API}/sandbox/clock`).then(
    () => done(),
    () => done(),
  );
});
