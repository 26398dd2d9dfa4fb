const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/** How long a left-over server has to stop on SIGTERM before it is killed. */
const GRACE_MS = 15_000;

/**
 * Jest's node environment, which also stops the server processes a test file registered with
 * `startedServer()` and left running (a test that failed before its own stop), and keeps the
 * file's server log (test/support/server-log.ts) only when one of its tests failed: a passing
 * file's log is noise, a failing file's is where the server says why. It runs after the file's
 * own afterAll hooks, so a file that stops its servers itself is never raced.
 */
class StartedServersEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.failed = false;
    const rootDir = config.projectConfig.rootDir;
    const named = path.relative(path.join(rootDir, 'test'), context.testPath).replace(/\.[cm]?[jt]s$/, '');
    this.global.__serverLog = { path: path.join(rootDir, 'tmp', 'test-logs', `${named}.log`) };
    // A log left by an earlier run of the file would read as this run's.
    fs.rmSync(this.global.__serverLog.path, { force: true });
  }

  handleTestEvent(event) {
    if ((event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure')
      this.failed = true;
  }

  async teardown() {
    const running = [...(this.global.__startedServers ?? [])];
    if (running.length > 0) {
      process.stderr.write(`${this.testPath}: stopping ${running.length} server process(es) the file left running\n`);
      await Promise.all(running.map(stop));
    }
    this.settleServerLog();
    await super.teardown();
  }

  settleServerLog() {
    const log = this.global.__serverLog;
    log.close?.();
    if (!fs.existsSync(log.path)) return;
    if (this.failed) process.stderr.write(`${this.testPath}: a test failed; the servers' log is kept in ${log.path}\n`);
    else fs.rmSync(log.path, { force: true });
  }
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

module.exports = StartedServersEnvironment;
