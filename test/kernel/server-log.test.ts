import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface Environment {
  global: { __serverLog: { path: string } };
  handleTestEvent(event: unknown): void;
  teardown(): Promise<void>;
}
type EnvironmentClass = new (config: unknown, context: unknown) => Environment;

const StartedServersEnvironment = createRequire(__filename)(
  '../support/started-servers-environment.js',
) as EnvironmentClass;

/** A test file's environment over a scratch root, its servers having written `lines` to the file's log. */
function environmentOf(rootDir: string, lines: string): Environment {
  const environment = new StartedServersEnvironment(
    { projectConfig: { rootDir, testEnvironmentOptions: {}, globals: {} }, globalConfig: {} },
    { testPath: path.join(rootDir, 'test', 'orders', 'orders.test.ts'), console, docblockPragmas: {} },
  );
  fs.mkdirSync(path.dirname(environment.global.__serverLog.path), { recursive: true });
  fs.writeFileSync(environment.global.__serverLog.path, lines);
  return environment;
}

/** The servers' log of a test file: kept to read when a test of the file failed, deleted when all passed. */
describe("the servers' log of a test file", () => {
  const rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-server-log-'));
  const logPath = path.join(rootDir, 'tmp', 'test-logs', 'orders', 'orders.test.log');
  afterAll(() => fs.rmSync(rootDir, { recursive: true, force: true }));

  it('is named after the test file, under tmp/test-logs', () => {
    expect(environmentOf(rootDir, '').global.__serverLog.path).toBe(logPath);
  });

  it('when a test of the file failed, then the log is kept and the failure output says where', async () => {
    const environment = environmentOf(rootDir, '{"msg":"order refused"}\n');
    const said = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      environment.handleTestEvent({ name: 'test_done', test: { errors: [new Error('expected status 201, got 400')] } });
      await environment.teardown();
      expect(said.mock.calls.map(([text]) => String(text)).join('')).toContain(
        `the servers' log is kept in ${logPath}`,
      );
    } finally {
      said.mockRestore();
    }
    expect(fs.readFileSync(logPath, 'utf8')).toBe('{"msg":"order refused"}\n');
  });

  it('when a hook of the file failed, then the log is kept', async () => {
    const environment = environmentOf(rootDir, '{"msg":"could not start"}\n');
    const said = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      environment.handleTestEvent({ name: 'hook_failure', hook: { type: 'beforeAll' } });
      await environment.teardown();
    } finally {
      said.mockRestore();
    }
    expect(fs.existsSync(logPath)).toBe(true);
  });

  it('when every test of the file passed, then the log is deleted', async () => {
    const environment = environmentOf(rootDir, '{"msg":"listening"}\n');
    environment.handleTestEvent({ name: 'test_done', test: { errors: [] } });
    await environment.teardown();
    expect(fs.existsSync(logPath)).toBe(false);
  });

  it("when the file runs again, then the earlier run's log is gone before its servers write", () => {
    fs.mkdirSync(path.dirname(logPath), { recursive: true });
    fs.writeFileSync(logPath, 'an earlier run\n');
    new StartedServersEnvironment(
      { projectConfig: { rootDir, testEnvironmentOptions: {}, globals: {} }, globalConfig: {} },
      { testPath: path.join(rootDir, 'test', 'orders', 'orders.test.ts') },
    );
    expect(fs.existsSync(logPath)).toBe(false);
  });
});
