import fs from 'node:fs';
import path from 'node:path';
import { DEMO_PARTNERS } from '../../src/modules/partners';
import { INVALID_PROMO_CODE } from '../../src/modules/promos/order-promos';
import { endpointUrlProblem } from '../../src/modules/webhooks/rules/endpoint-address';

/**
 * What a partner reads first says what the contract and the code say: the docs page's
 * getting-started guide (info.description of the bundled document), the README and
 * docs/webhooks.md.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Operation {
  operationId: string;
  parameters?: Array<{ name?: string; $ref?: string }>;
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
interface Bundle {
  info: { description: string };
  paths: Record<string, Record<string, unknown>>;
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, { enum?: string[]; description?: string }> };
}
const bundle = JSON.parse(read('generated/openapi.json')) as Bundle;
const guide = bundle.info.description;

/** The text of a markdown section: from its heading to the next heading (outside code blocks) of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  let inCode = false;
  const headings = lines.map((line) => {
    if (/^\s*```/.test(line)) inCode = !inCode;
    return inCode ? undefined : /^(#+) (.*)$/.exec(line);
  });
  const start = headings.findIndex((match) => match?.[2] !== undefined && new RegExp(`^${heading}$`).test(match[2]));
  const level = headings[start]?.[1]?.length;
  if (level === undefined) throw new Error(`no section "${heading}"`);
  const end = headings.findIndex((match, i) => i > start && match?.[1] !== undefined && match[1].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The table rows of a text that name a demo clientId, as [name, clientId, clientSecret]. */
function credentialRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => /^\|.*`demo-/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim().replaceAll('`', '')))
    .map((cells) => [cells[1] ?? '', cells[3] ?? '', cells[4] ?? '']);
}

describe('the credentials partners are given', () => {
  const seeded = DEMO_PARTNERS.map((partner) => [partner.name, partner.clientId, partner.clientSecret]);

  it('are one table on the docs page: every demo partner the sandbox seeds, and no other', () => {
    expect(credentialRows(section(guide, 'Sandbox credentials'))).toEqual(seeded);
  });

  it('are the same table in the README', () => {
    expect(credentialRows(section(read('README.md'), 'Demo partners \\(sandbox only\\)'))).toEqual(seeded);
  });
});

describe("the docs page's getting-started guide", () => {
  it('has "Testing your integration": the payment and refund outcomes, the test clock with its Sandbox-Today header, and test events', () => {
    const testing = section(guide, 'Testing your integration');
    for (const call of [
      'POST /sandbox/payments/{paymentRef}/outcome',
      'POST /sandbox/refunds/{refundRef}/outcome',
      'PUT /sandbox/clock',
      'DELETE /sandbox/clock',
      'POST /sandbox/events',
    ]) {
      expect(testing).toContain(call);
    }
    for (const outcome of [
      'CAPTURED',
      'DECLINED',
      'INSUFFICIENT_FUNDS',
      'CANCELLED_BY_CUSTOMER',
      'ABANDONED',
      'PENDING',
      'SUCCEEDED',
      'FAILED',
    ])
      expect(testing).toContain(`\`${outcome}\``);
    expect(testing).toContain('`Sandbox-Today`');
    expect(testing).toContain('every one waits for it');
    expect(testing).toContain('`GET /events?sandbox=false`');
  });

  it('says under the test cards that no sandbox refund settles by itself, whatever the instrument', () => {
    expect(section(guide, 'Test cards and wallets')).toContain(
      'Refunds of sandbox payments never settle by themselves',
    );
  });

  it('says in plain view, where webhooks are explained, that a sandbox takes a receiver on loopback, under the setting the server reads', () => {
    const webhooks = section(guide, 'Receiving webhooks');
    expect(webhooks).toContain('http://localhost:4000/pbs/webhooks');
    expect(webhooks).toContain('`WEBHOOK_ALLOW_PRIVATE_ENDPOINTS`');
    expect(read('src/modules/webhooks/settings.ts')).toMatch(/\bWEBHOOK_ALLOW_PRIVATE_ENDPOINTS: flag\(\)/);
  });

  it('points to the table of error codes, which lists every code of the ErrorCode enum', () => {
    expect(section(guide, 'Errors')).toMatch(/table of every code[\s\S]*`ErrorCode` schema/);
    const errorCode = bundle.components.schemas.ErrorCode;
    expect(errorCode?.enum?.length).toBeGreaterThan(10);
    const missing = (errorCode?.enum ?? []).filter((code) => !errorCode?.description?.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it('says a refused promo code is one answer for every cause, the one the code gives, and what to check instead', () => {
    const errors = section(guide, 'Errors');
    expect(errors).toContain(
      `a 400 \`PROMO_CODE_INVALID\` with the
    message \`${INVALID_PROMO_CODE}\``.replace(/\n\s+/g, '\n'),
    );
    for (const check of ['spelt as given', 'active', 'validity', 'uses left', 'bound to one', 'ask the operator'])
      expect({ check, found: errors.includes(check) }).toEqual({ check, found: true });
  });

  it('says what a sandbox that allows local receivers accepts, as the endpoint check does: plain http to any host', () => {
    expect(section(guide, 'Receiving webhooks')).toContain(
      'accepts plain `http` (to any host) and loopback and private',
    );
    expect(endpointUrlProblem('http://hooks.partner-a.example.com/pbs', true)).toBeUndefined();
    expect(endpointUrlProblem('http://10.0.0.7:4000/pbs', true)).toBeUndefined();
    expect(endpointUrlProblem('http://hooks.partner-a.example.com/pbs', false)).toBe('must be HTTPS');
  });

  it('says that a replayed answer carries Idempotency-Replayed, which every operation taking an Idempotency-Key documents on its success', () => {
    expect(section(guide, 'Creating without duplicates')).toContain('`Idempotency-Replayed: true`');
    const keyed = Object.values(bundle.paths)
      .flatMap((item) => Object.values(item))
      .filter(
        (operation): operation is Operation =>
          typeof operation === 'object' && operation !== null && 'responses' in operation,
      )
      .filter((operation) => /Idempotency-?Key/.test(JSON.stringify(operation.parameters ?? [])));
    expect(keyed.length).toBeGreaterThanOrEqual(8);
    const undocumented = keyed
      .filter((operation) =>
        Object.entries(operation.responses)
          .filter(([status]) => status.startsWith('2'))
          .some(([, response]) => !response.headers?.['Idempotency-Replayed']),
      )
      .map((operation) => operation.operationId);
    expect(undocumented).toEqual([]);
  });

  it('retries creates with their Idempotency-Key', () => {
    const retries = section(guide, 'Retries');
    expect(retries).toMatch(/\| 500 \|.*same `Idempotency-Key`/);
    expect(retries).toContain('(`POST /orders`, `/travellers`, `/documents`, `/webhook-endpoints`)');
  });
});

describe('docs/webhooks.md', () => {
  const webhooks = read('docs/webhooks.md');

  it("has a row for every event type of the contract's webhooks, saying when it is sent and what data it carries", () => {
    const rows = section(webhooks, 'Event types')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const types = rows.map((row) => /^\| `([a-z_.]+)` \|/.exec(row)?.[1]);
    expect(types.sort()).toEqual(Object.keys(bundle.webhooks).sort());
    for (const row of rows) expect(row.split('|').filter((cell) => cell.trim() !== '')).toHaveLength(3);
  });

  it('verifies with the standardwebhooks library and catches up with GET /events and replay', () => {
    expect(section(webhooks, 'Verifying a delivery \\(Standard Webhooks\\)')).toContain("from 'standardwebhooks'");
    const catchingUp = section(webhooks, 'Catching up after an outage');
    expect(catchingUp).toContain('GET /api/external/v1/events');
    expect(catchingUp).toContain('/replay');
  });
});

describe('the README', () => {
  it("uses in its quote only a nationality the contract's examples use", () => {
    const examples = fs
      .readdirSync(path.join(ROOT, 'spec/components/examples'))
      .map((file) => read(`spec/components/examples/${file}`))
      .flatMap((text) => [...text.matchAll(/^\s*nationality: (.+)$/gm)].map((match) => match[1]?.trim()));
    const used = [...read('README.md').matchAll(/"nationality":"([^"]*)"/g)].map((match) => match[1]);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((nationality) => !examples.includes(nationality))).toEqual([]);
  });
});
