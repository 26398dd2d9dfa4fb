// Dredd hooks for the order book and the quote readback (issue 29), loaded after hooks.cjs (which
// sets the token and skips what it has no scenario for): GET /orders as JSON for the first sandbox
// partner, and GET /reference/quote/{quoteId} on a quote that partner has just asked for.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };

hooks.beforeAll((_transactions, done) => {
  (async () => {
    fixtures.caller = await signedInPartner(baseUrl, DEMO_PARTNERS[0]);
    fixtures.quote = await fixtures.caller.quote();
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `order book contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const scenarios = {
  listOrders: {
    // The JSON page. Content-Disposition is documented on this 200 for its CSV form only, so a
    // JSON page is not expected to carry it (the CSV export is checked by test/orders/order-book.test.ts).
    200: (t) => {
      onPath(t, `${API}/orders`);
      delete t.expected.headers['Content-Disposition'];
    },
  },
  getQuote: {
    200: (t) => onPath(t, `${API}/reference/quote/${fixtures.quote.quoteId}`),
  },
};

runScenarios(hooks, scenarios, fixtures);
