// Dredd hooks for the commission statements (issue 38), loaded after hooks.cjs (file names in order), which sets the
// token and skips what it has no scenario for): the JSON statement of a month of the first sandbox
// partner, and a period that is not a month (400). The CSV and PDF forms are checked by
// test/commissions/commission-statements.test.ts.
const hooks = require('hooks');
const { API, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const scenarios = {
  getCommissionStatement: {
    // Content-Disposition is documented on this 200 for the CSV and PDF forms only.
    200: (t) => {
      onPath(t, `${API}/commission-statements/2030-09`);
      delete t.expected.headers['Content-Disposition'];
    },
    400: (t) => onPath(t, `${API}/commission-statements/2030-13`),
  },
};

runScenarios(hooks, scenarios, {});
