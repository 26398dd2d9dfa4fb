// Dredd hooks for extensions (issue 49, decision record 0099), loaded after hooks.cjs (which sets the token and
// skips what it has no scenario for): previewOrderExtension and extendOrder on live paid orders of the first sandbox
// partner, three days more (the documented examples name dates of 2031, beyond any live order's maximum). Every
// extension gets a fresh paid order and an Idempotency-Key of its own. The group's preview and extension (decision
// record 0108) each get a group of three paid by one group payment, its third member cancelled, as the examples show.
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };

const previewPath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/extension/preview`;
const extendPath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/extension`;
const groupExtensionPath = (groupRef) => `${API}/orders/groups/${encodeURIComponent(groupRef)}/extension`;

/** A group of three paid by one group payment, its third member cancelled. */
async function paidGroupOfThree(caller) {
  const group = await caller.group(3);
  await caller.payInFull(`groups/${encodeURIComponent(group.groupRef)}`);
  await caller.call('POST', `${API}/orders/${encodeURIComponent(group.orders[2].orderRef)}/cancellation`, {
    body: { reason: 'OTHER' },
    headers: { 'idempotency-key': randomUUID() },
  });
  return group;
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    fixtures.caller = await signedInPartner(baseUrl, DEMO_PARTNERS[0]);
    fixtures.paid = await fixtures.caller.order();
    await fixtures.caller.payInFull(encodeURIComponent(fixtures.paid.orderRef));
    fixtures.previewedGroup = await paidGroupOfThree(fixtures.caller);
    fixtures.extendedGroup = await paidGroupOfThree(fixtures.caller);
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `extension contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const scenarios = {
  previewOrderExtension: {
    200: (t) => {
      t.request.body = JSON.stringify({ extraDays: 3 });
      onPath(t, previewPath(fixtures.paid.orderRef));
    },
  },
  extendOrder: {
    200: async (t) => {
      const order = await fixtures.caller.order();
      await fixtures.caller.payInFull(encodeURIComponent(order.orderRef));
      const body = JSON.parse(t.request.body);
      delete body.coverageEndDate;
      t.request.body = JSON.stringify({ ...body, extraDays: 3 });
      t.request.headers['Idempotency-Key'] = randomUUID();
      onPath(t, extendPath(order.orderRef));
    },
  },
  previewGroupExtension: {
    200: (t) => {
      t.request.body = JSON.stringify({ extraDays: 3 });
      onPath(t, `${groupExtensionPath(fixtures.previewedGroup.groupRef)}/preview`);
    },
  },
  extendGroup: {
    200: (t) => {
      const body = JSON.parse(t.request.body);
      delete body.coverageEndDate;
      t.request.body = JSON.stringify({ ...body, extraDays: 3 });
      t.request.headers['Idempotency-Key'] = randomUUID();
      onPath(t, groupExtensionPath(fixtures.extendedGroup.groupRef));
    },
  },
};

runScenarios(hooks, scenarios, fixtures);
