import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { present } from '../narrow';

/**
 * For every answer, JSON and the HTML pages we render ourselves (hosted checkout, payment result):
 * nothing may be loaded but inline styles, no <base>, and no page may be framed (a framed checkout
 * is the classic clickjacking target). `form-action` stays unset on purpose: it would also govern
 * the redirect from the checkout to the partner's returnUrl on another origin.
 */
export const STRICT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

/**
 * helmet's headers (nosniff, no Referer: checkout and callback URLs carry payment references; DENY
 * framing) and the strict CSP, set in one step. helmet decides them, once, at start: they are the
 * same for every answer, and helmet's own middleware runs eleven steps per request to set them
 * (about 5% of a quote's CPU, BENCHMARKS.md).
 */
export function securityHeaders(): RequestHandler {
  const headers: [string, string][] = [...helmetHeaders(), ['Content-Security-Policy', STRICT_CONTENT_SECURITY_POLICY]];
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** What helmet sets on a response, by running it once on a response no client will see. */
function helmetHeaders(): [string, string][] {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  helmet({
    contentSecurityPolicy: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })(req, res, () => undefined);
  return Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]);
}

const policies = new Map<string, string>();

/**
 * The Redoc page's policy: its own inline scripts by hash (computed from the built page, so a
 * script injected into it would not run), Redoc's inline styles, data: icons and fonts, and the
 * blob: worker of its search. Nothing from another origin: the page is self-contained.
 */
export function docsContentSecurityPolicy(pageFile: string): string {
  const stat = fs.statSync(pageFile);
  const key = `${pageFile}:${stat.mtimeMs}`;
  let policy = policies.get(key);
  if (!policy) {
    const html = fs.readFileSync(pageFile, 'utf8');
    const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, script]) =>
        `'sha256-${createHash('sha256').update(present(script, 'an inline script body'), 'utf8').digest('base64')}'`,
    );
    policy = [
      "default-src 'none'",
      `script-src ${hashes.join(' ')}`,
      "style-src 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      'worker-src blob:',
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    policies.clear();
    policies.set(key, policy);
  }
  return policy;
}
