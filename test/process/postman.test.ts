import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import newman, { type NewmanRunSummary } from 'newman';
import type { RunningServer } from '../../src/server';
import { documentViolations, startUploadBypass } from '../support/prism';
import { SANDBOX_ENV, startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');
/** The one request of the story that must be refused: a code the sandbox has expired. */
const DELIBERATE_ERRORS = new Set(['An invalid code is refused like any rejected code (deliberate 400)']);

function runCollection(baseUrl: string): Promise<NewmanRunSummary> {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'postman', file), 'utf8'));
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: read('collection.json'),
        environment: read('sandbox.postman_environment.json'),
        envVar: [{ key: 'baseUrl', value: baseUrl }],
        workingDir: ROOT,
        reporters: [],
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });
}

describe("npm run postman: the collection walks a policy's life as one story, folder after folder", () => {
  let server: RunningServer;
  /** Under `npm run mock:validate` (PRISM_PROXY=1): through Prism, uploads straight to the server. */
  let frontDoor: { url: string; stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    // The sandbox a partner runs it against: demo partners and demo promo codes seeded.
    // Background jobs on: the story reads a webhook delivery the relay makes.
    server = await startTestServer({ ...SANDBOX_ENV }, undefined, { backgroundJobs: true });
    if (process.env.PRISM_PROXY === '1') frontDoor = await startUploadBypass(server.url);
    execFileSync(process.execPath, ['scripts/postman.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }, 60_000);
  afterAll(async () => {
    await frontDoor?.stop();
    await server.stop();
  });

  /** Every check passed, nothing departed from the document, and only the deliberate error case answered 4xx. */
  function expectTheWholeStoryPassed(summary: NewmanRunSummary): void {
    const failures = summary.run.failures.map((failure) => `${failure.source?.name ?? '?'}: ${failure.error.message}`);
    expect(failures).toEqual([]);
    const executions = summary.run.executions.map((execution) => ({
      name: execution.item.name,
      status: execution.response?.code,
    }));
    expect(executions.length).toBeGreaterThanOrEqual(20);
    // Through Prism's proxy: nothing in the story, asked or answered, departs from the document.
    const violations = summary.run.executions.flatMap((execution) =>
      documentViolations(execution.response?.headers.get('sl-violations')).map(
        (v) => `${execution.item.name}: ${v.location.join('.')}: ${v.message}`,
      ),
    );
    expect(violations).toEqual([]);
    expect(executions.filter(({ name, status }) => (status ?? 0) >= 400 && !DELIBERATE_ERRORS.has(name))).toEqual([]);
    // Each request checks status, schema and at least one business result.
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(executions.length * 3);
  }

  it('when run against the sandbox, then every check passes and only the deliberate error case answers 4xx', async () => {
    expectTheWholeStoryPassed(await runCollection(frontDoor?.url ?? server.url));
  }, 120_000);

  it('when run a second time against the same server, then it passes again: fresh names, new idempotency keys, the test clock removed by the first run', async () => {
    const summary = await runCollection(frontDoor?.url ?? server.url);
    expectTheWholeStoryPassed(summary);
    // The second run's payments settle on the real date: the free look holds again for Sophie.
    expect(
      summary.run.executions
        .find((execution) => execution.item.name === 'Sophie changes her mind: preview cancelling her paid order')
        ?.response?.headers.get('Sandbox-Today'),
    ).toBeUndefined();
  }, 120_000);
});
