// Dredd hooks for getOrderGroup (loaded after test/contract/hooks.cjs). The documented group has
// two orders, the first paid on its own and the second still pending, and a group payment that
// ended (its completedAt is a string): Dredd 14 compares the answer with that example key by key
// and type by type, so the group read back is built to the same state through the API.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
// Everest Trails reads its group; Annapurna Adventure's group is "another company's".
const [callerPartner, otherPartner] = DEMO_PARTNERS;
const fixtures = { error: undefined };
const groupPath = (ref) => `${API}/orders/groups/${encodeURIComponent(ref)}`;

const scenarios = {
  getOrderGroup: {
    200: (t) => onPath(t, groupPath(fixtures.partlyPaid.groupRef)),
    // Longer than any group reference may be.
    400: (t) => onPath(t, groupPath(`GRP-2030-${'9'.repeat(100)}`)),
    404: (t) => onPath(t, groupPath(fixtures.othersGroup.groupRef)),
  },
};

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [callerPartner, otherPartner].map((partner) => signedInPartner(baseUrl, partner)),
    );
    const group = await caller.group(2);
    // The group payment is started, then superseded by paying the first order on its own.
    await caller.pay(`groups/${encodeURIComponent(group.groupRef)}`);
    await caller.payInFull(encodeURIComponent(group.orders[0].orderRef));
    fixtures.partlyPaid = group;
    fixtures.othersGroup = await other.group();
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `order group contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

runScenarios(hooks, scenarios, fixtures);
