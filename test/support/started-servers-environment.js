const { TestEnvironment } = require('jest-environment-node');

/** How long a left-over server has to stop on SIGTERM before it is killed. */
const GRACE_MS = 15_000;

/**
 * Jest's node environment, which also stops the server processes a test file registered with
 * `startedServer()` and left running (a test that failed before its own stop). It runs after the
 * file's own afterAll hooks, so a file that stops its servers itself is never raced.
 */
class StartedServersEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async teardown() {
    const running = [...(this.global.__startedServers ?? [])];
    if (running.length > 0) {
      process.stderr.write(`${this.testPath}: stopping ${running.length} server process(es) the file left running\n`);
      await Promise.all(running.map(stop));
    }
    await super.teardown();
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
