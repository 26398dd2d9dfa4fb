// Dredd hooks for assistance cases (issue 39), loaded after hooks.cjs (which sets the token and
// skips what it has no scenario for): each operation on live paid orders and cases of the first
// sandbox partner, another company's order (403), unknown references (404), an unpaid order and a
// withdrawn case (400), and a traveller who already has an open case (409). Each open gets an
// Idempotency-Key of its own; each case a paid order (and so a traveller) of its own.
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
const UNKNOWN_CASE = 'AST-2026-999999';

const openPath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/assistance-cases`;
const casePath = (caseRef, tail = '') => `${API}/assistance-cases/${encodeURIComponent(caseRef)}${tail}`;
const withKey = (t) => {
  t.request.headers['Idempotency-Key'] = randomUUID();
};
const REPORT = {
  category: 'ALTITUDE_SICKNESS',
  requestedService: 'HELICOPTER_EVACUATION',
  location: { latitude: 27.9881, longitude: 86.925, placeName: 'Gorak Shep lodge' },
  altitudeMeters: 5164,
  summary: 'Suspected HACE; cannot walk down.',
  reporter: { name: 'Pemba Sherpa', phone: '+977 9841 234567', role: 'GUIDE' },
};

async function paidOrder(partner) {
  const order = await partner.order();
  await partner.payInFull(encodeURIComponent(order.orderRef));
  return order;
}

/** A case RECEIVED on a paid order of its own. */
async function openCase(partner) {
  const order = await paidOrder(partner);
  return partner.call('POST', openPath(order.orderRef), { body: REPORT, headers: { 'idempotency-key': randomUUID() } });
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [DEMO_PARTNERS[0], DEMO_PARTNERS[1]].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.caller = caller;
    fixtures.unpaid = await caller.order();
    fixtures.othersOrder = await paidOrder(other);
    fixtures.open = await openCase(caller);
    fixtures.withdrawn = await openCase(caller);
    await caller.call('POST', casePath(fixtures.withdrawn.caseRef, '/withdrawal'), { body: { reason: 'False alarm' } });
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `assistance contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const scenarios = {
  openAssistanceCase: {
    201: async (t) => {
      const order = await paidOrder(fixtures.caller);
      withKey(t);
      onPath(t, openPath(order.orderRef));
    },
    400: (t) => {
      withKey(t);
      onPath(t, openPath(fixtures.unpaid.orderRef));
    },
    403: (t) => {
      withKey(t);
      onPath(t, openPath(fixtures.othersOrder.orderRef));
    },
    404: (t) => {
      withKey(t);
      onPath(t, openPath(UNKNOWN_ORDER));
    },
    409: (t) => {
      withKey(t);
      onPath(t, openPath(fixtures.open.orderRef));
    },
  },
  listAssistanceCases: {
    200: (t) => onPath(t, `${API}/assistance-cases`),
    400: (t) => onPath(t, `${API}/assistance-cases?status=LOST`),
  },
  getAssistanceCase: {
    200: (t) => onPath(t, casePath(fixtures.open.caseRef)),
    404: (t) => onPath(t, casePath(UNKNOWN_CASE)),
  },
  addAssistanceCaseUpdate: {
    200: (t) => onPath(t, casePath(fixtures.open.caseRef, '/updates')),
    400: (t) => onPath(t, casePath(fixtures.withdrawn.caseRef, '/updates')),
    404: (t) => onPath(t, casePath(UNKNOWN_CASE, '/updates')),
  },
  withdrawAssistanceCase: {
    200: async (t) => {
      const fresh = await openCase(fixtures.caller);
      onPath(t, casePath(fresh.caseRef, '/withdrawal'));
    },
    400: (t) => onPath(t, casePath(fixtures.withdrawn.caseRef, '/withdrawal')),
    404: (t) => onPath(t, casePath(UNKNOWN_CASE, '/withdrawal')),
  },
};

runScenarios(hooks, scenarios, fixtures);
