// Runs a hook file's live scenarios: `scenarios[operationId][status](transaction)` prepares the
// documented transaction of that operation and status on live records before Dredd sends it.
const path = require('node:path');

const document = require(path.join(__dirname, '../../generated/openapi.json'));

const operations = new Map();
for (const [template, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (operation && operation.operationId)
      operations.set(`${method.toUpperCase()} ${template}`, operation.operationId);
  }
}

/** The operationId of a Dredd transaction, from its method and path template. */
const operationIdOf = (transaction) =>
  operations.get(`${transaction.request.method} ${transaction.origin.resourceName}`);

/**
 * Registers the beforeEach hook that un-skips and prepares each transaction a scenario covers.
 * `fixtures.error` (set when the file's beforeAll could not build its records) fails them all.
 */
function runScenarios(hooks, scenarios, fixtures) {
  hooks.beforeEach((transaction, done) => {
    const operationId = operationIdOf(transaction);
    if (!operationId || !(operationId in scenarios)) return done();
    if (fixtures.error) {
      transaction.fail = fixtures.error;
      return done();
    }
    const status = Number(transaction.expected.statusCode);
    const scenario = scenarios[operationId][status];
    if (!scenario) return done();
    transaction.skip = false;
    Promise.resolve()
      .then(() => scenario(transaction))
      .then(
        () => done(),
        (error) => {
          transaction.fail = `fixture for ${operationId} ${status} failed: ${error.message}`;
          done();
        },
      );
  });
}

module.exports = { operationIdOf, runScenarios };
