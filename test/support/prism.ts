import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/kernel/db/local-cluster';

const ROOT = path.resolve(__dirname, '../..');
const PRISM = path.join(ROOT, 'node_modules/.bin/prism');
const DOCUMENT = path.join(ROOT, 'generated/openapi.json');

/** Proxy URL -> the server behind it, for the requests Prism cannot forward (see serverBehind). */
const upstreams = new Map<string, string>();

/**
 * The server itself behind a `prism proxy` URL (the URL itself when it is not a proxy). Prism 5.14
 * cannot forward two kinds of request faithfully, so tests send those straight to the server and
 * check the answer with Ajv (expectContract) as in `npm test`: multipart uploads (Prism decodes
 * every request body as UTF-8 text, which corrupts file bytes, and stops at 10 MB) and requests
 * answered with a redirect (Prism follows the gateway callback's 303 to the partner's returnUrl
 * instead of passing it on). The hosted checkout links name the server itself for the same reason.
 */
export function serverBehind(url: string): string {
  return upstreams.get(url) ?? url;
}

export interface PrismProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Prism 5.14 on the bundled document: `mock` answers from the documented examples, `proxy`
 * forwards to a real server and reports every violation of the document in `sl-violations`.
 */
export async function startPrism(mode: 'mock'): Promise<PrismProcess>;
export async function startPrism(mode: 'proxy', upstream: string): Promise<PrismProcess>;
export async function startPrism(mode: 'mock' | 'proxy', upstream?: string): Promise<PrismProcess> {
  const port = await freePort();
  // Without --errors: the proxy forwards every request, also the invalid ones tests send on purpose
  // (with --errors it answers those itself), and reports violations in `sl-violations`.
  const args = mode === 'mock' ? ['mock', DOCUMENT] : ['proxy', DOCUMENT, upstream as string];
  const child: ChildProcess = spawn(PRISM, [...args, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism ${mode} exited with ${code}:\n${output}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  if (upstream) upstreams.set(url, upstream);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        upstreams.delete(url);
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A front door for clients that cannot choose where each request goes (newman running the Postman
 * story): multipart uploads go straight to the server behind the proxy (see serverBehind), every
 * other request through Prism.
 */
export async function startUploadBypass(proxyUrl: string): Promise<PrismProcess> {
  const server = http.createServer((req, res) => {
    const target = new URL(
      req.url ?? '/',
      /^multipart\//i.test(req.headers['content-type'] ?? '') ? serverBehind(proxyUrl) : proxyUrl,
    );
    const forward = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.once('error', (error) => res.destroy(error));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface DocumentViolation {
  location: string[];
  severity: string;
  message: string;
}

/** What Prism's proxy found wrong with one exchange, from its `sl-violations` header. */
export function documentViolations(header: string | null | undefined): DocumentViolation[] {
  if (!header) return [];
  return (
    header.startsWith('[') ? JSON.parse(header) : [{ location: ['response'], severity: 'Error', message: header }]
  ) as DocumentViolation[];
}
