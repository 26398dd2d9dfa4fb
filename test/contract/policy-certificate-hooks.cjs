// Dredd hooks for the certificate operations (loaded after test/contract/hooks.cjs, whose
// beforeEach sets the token and skips what it has no scenario for): getOrderCertificate on a paid
// order of the first sandbox partner, on an unpaid one (400) and on another company's (404), and
// the public verification page of the paid order's policy number and of an unknown one.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };

const certificatePath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/certificate`;

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [DEMO_PARTNERS[0], DEMO_PARTNERS[1]].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.paid = await caller.order();
    await caller.payInFull(encodeURIComponent(fixtures.paid.orderRef));
    fixtures.policyNumber = (await caller.call('GET', `${API}/orders/${fixtures.paid.orderRef}`)).policyNumber;
    fixtures.unpaid = await caller.order();
    fixtures.othersOrder = await other.order();
    await other.payInFull(encodeURIComponent(fixtures.othersOrder.orderRef));
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `certificate contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const scenarios = {
  getOrderCertificate: {
    200: (t) => onPath(t, certificatePath(fixtures.paid.orderRef)),
    400: (t) => onPath(t, certificatePath(fixtures.unpaid.orderRef)),
    // Another company's order is as unknown as one that does not exist (issue 40).
    404: (t) => onPath(t, certificatePath(fixtures.othersOrder.orderRef)),
  },
  verifyPolicy: {
    200: (t) => onPath(t, `/verify/${encodeURIComponent(fixtures.policyNumber)}`),
    404: (t) => onPath(t, '/verify/POL-2026-999999'),
  },
};

runScenarios(hooks, scenarios, fixtures);
