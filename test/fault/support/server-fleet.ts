import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forkServer, NO_WRITE_LIMITS, type ServerProcess } from '../../support/built-server';
import { at } from '../../support/elements';

/**
 * Several built server processes (dist/src/main.js) on one database and one DATA_DIR (so they
 * share the sandbox gateways' signing secrets and document storage), each restartable on its own
 * port so that links it handed out (checkout pages, callbacks) stay valid across a crash.
 */
export class ServerFleet {
  readonly processes: ServerProcess[] = [];
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-fleet-'));
  /** Log lines of processes that were killed and replaced, kept for the log checks. */
  private readonly retiredLogs: Array<Record<string, unknown>> = [];

  constructor(
    private readonly databaseUrl: string,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Forks `count` processes one after the other: the first migrates and seeds the database. */
  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.processes.push(await this.fork());
  }

  get urls(): string[] {
    return this.processes.map((p) => p.url);
  }

  /** kill -9: no drain, no pool close, in-flight requests cut. */
  async kill(index: number): Promise<void> {
    const victim = at(this.processes, index, 'the fleet');
    victim.child.kill('SIGKILL');
    await victim.exited;
    this.retiredLogs.push(...victim.logs());
  }

  /** A fresh process on the killed one's port. */
  async restart(index: number): Promise<void> {
    this.processes[index] = await this.fork(at(this.processes, index, 'the fleet').port);
  }

  logs(): Array<Record<string, unknown>> {
    return [...this.retiredLogs, ...this.processes.flatMap((p) => p.logs())];
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map(async (p) => {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
        await p.exited;
      }),
    );
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async fork(port = 0): Promise<ServerProcess> {
    const previous = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = this.databaseUrl;
    try {
      return await forkServer('main', {
        DATA_DIR: this.dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DB_POOL_MAX: '10',
        // Every simulated partner takes a token per flow; the limits are not what this run measures.
        ...NO_WRITE_LIMITS,
        ...this.env,
      });
    } finally {
      process.env.TEST_DATABASE_URL = previous;
    }
  }
}
