// Dredd hooks for the refund reads (issue 36), loaded after hooks.cjs (which puts the first
// sandbox partner's token on every request): the list without the example's filters (its CSV
// header is documented for the text/csv form only), and one refund of that partner read by its
// reference, found when the transaction runs (the cancellations of the order hooks, earlier in the
// document, made them). Without one, the read is skipped rather than answered 404.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };

const scenarios = {
  listRefunds: {
    200: (t) => {
      onPath(t, `${API}/refunds`);
      delete t.expected.headers['Content-Disposition'];
    },
  },
  getRefund: {
    200: async (t) => {
      const caller = await signedInPartner(baseUrl, DEMO_PARTNERS[0]);
      const [refund] = (await caller.call('GET', `${API}/refunds?size=1`)).content;
      if (!refund) {
        t.skip = true;
        return;
      }
      onPath(t, `${API}/refunds/${refund.refundRef}`);
    },
  },
};

runScenarios(hooks, scenarios, fixtures);
