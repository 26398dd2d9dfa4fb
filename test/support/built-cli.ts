import { spawn } from 'node:child_process';
import path from 'node:path';
import { SANDBOX_ENV } from './test-server';

/** The operator CLI as `npm run build` leaves it (a process test builds it first: built-server.ts). */
const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run ops -- <args>` as the operator runs it: the built CLI in a process of its own over
 * `databaseUrl`, with the sandbox's settings and `env` (a provider simulator's address, say).
 */
export function runOps(
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<OpsRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: databaseUrl, ...SANDBOX_ENV, ...env },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A step that must succeed: what it printed, or an error with what it said on stderr. */
export async function opsOutput(
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const result = await runOps(databaseUrl, args, env);
  if (result.code !== 0) throw new Error(`ops ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
