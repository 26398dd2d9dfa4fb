import { captured } from '../support/elements';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { client } = useTestServer();

/** Every `src`/`href` of a script or stylesheet tag in the page. */
function loadedResources(html: string): string[] {
  const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
  return tags.flatMap((tag) =>
    [...tag.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map((match) => captured(match, 1)),
  );
}

describe('the partner docs page', () => {
  it('serves the Redoc page of the contract at /docs (built by npm run docs)', async () => {
    const response = await client.call<string>('GET', '/docs');
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.body).toMatch(/^<!DOCTYPE html>/i);
    expect(response.body).toContain('Partner Booking');
    expect(response.body).toContain('/api/external/v1/reference/quote');
  });

  it('is self-contained: no script or stylesheet comes from another host', async () => {
    const response = await client.call<string>('GET', '/docs');
    expectStatus(response, 200);
    expect(response.body).toMatch(/<script\b/i); // the Redoc bundle itself, inlined
    const external = loadedResources(response.body).filter((url) => /^(https?:)?\/\//i.test(url));
    expect(external).toEqual([]);
    expect(response.body).not.toMatch(/\bimport\b[^;]*?["'](https?:)?\/\//); // no module imported from a CDN
    expect(response.body).toMatch(/"disableTelemetry":\s*true/); // the page reports nothing to Redocly
  });

  it("on a sandbox, documents the sandbox helpers and the demo partners' published credentials", async () => {
    const response = await client.call<string>('GET', '/docs');
    expectStatus(response, 200);
    expect(response.body).toContain('setSandboxPaymentOutcome');
    expect(response.body).toContain('sandbox-secret-everest-trails');
  });
});
