import pino from 'pino';

/** What the test environment (started-servers-environment.js) hands the file: where its log goes. */
interface ServerLogSlot {
  path: string;
  destination?: pino.DestinationStream;
  /** Called by the environment once the file ends. */
  close?: () => void;
}

const slot = (): ServerLogSlot | undefined => (globalThis as { __serverLog?: ServerLogSlot }).__serverLog;

/**
 * The one log of this test file's servers, tmp/test-logs/<path under test/>.log, opened with the
 * first server: the environment keeps it when a test of the file fails and deletes it when all
 * pass. Outside that environment there is none, and servers stay silent.
 */
export function serverLog(): pino.DestinationStream | undefined {
  const current = slot();
  if (!current) return undefined;
  if (!current.destination) {
    // Synchronous writes: the lines before a failure are on disk when the environment keeps the file.
    const destination = pino.destination({ dest: current.path, sync: true, mkdir: true, append: true });
    current.destination = destination;
    current.close = () => destination.end();
  }
  return current.destination;
}

/** Where this file's server log is, once a server has written to it. */
export function serverLogPath(): string | undefined {
  const current = slot();
  return current?.destination ? current.path : undefined;
}

/** Appends what a forked server process printed (its JSON lines, its stderr) to this file's log. */
export function appendToServerLog(chunk: Buffer | string): void {
  serverLog()?.write(chunk.toString());
}
