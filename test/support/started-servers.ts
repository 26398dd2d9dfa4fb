import type { ChildProcess } from 'node:child_process';

/**
 * Registers a server process a test started, so that the test environment
 * (started-servers-environment.js) stops it if it is still running when the file ends. A test that
 * fails before its own stop would otherwise leave it running: jest then never exits (the child's
 * pipes and IPC channel hold it open), and the server goes on relaying and delivering from the
 * run's database under the next files' feet.
 */
export function startedServer<T extends ChildProcess>(child: T): T {
  const scope = globalThis as { __startedServers?: Set<ChildProcess> };
  const running = (scope.__startedServers ??= new Set());
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
