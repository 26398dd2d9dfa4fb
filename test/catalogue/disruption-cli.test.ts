import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { buildServer } from '../support/built-server';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { SANDBOX_ENV, useTestServer } from '../support/test-server';

const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);
jest.setTimeout(180_000);

/** One `ops disruption` command in its own process, as the operator runs it beside the server. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'disruption', ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: databaseUrl(), ...SANDBOX_ENV },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// A database of its own: a declaration is sent to every company, other files' included.
const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'disruption_cli' });
let partner: TestPartner;

beforeAll(async () => {
  buildServer();
  partner = await newPartner(server, client, { name: 'Disruption Desk Treks' });
});

describe('ops disruption', () => {
  it('the operator declares a Lukla disruption (every partner hears of it), lists it, ends it early; each refused command says why', async () => {
    const today = kathmanduToday();
    const to = addDays(today, 4);
    const declared = await ops(
      'declare',
      '--area',
      'lukla',
      '--from',
      today,
      '--to',
      to,
      '--max-days',
      '5',
      '--note',
      'Lukla flights grounded by low cloud',
      '--json',
    );
    expect(declared.code).toBe(0);
    const disruption = JSON.parse(declared.stdout) as { disruptionId: string; area: string; status: string };
    expect(disruption).toMatchObject({ area: 'LUKLA', status: 'ACTIVE', startsOn: today, endsOn: to, maxDays: 5 });
    expect(disruption.disruptionId).toMatch(/^D-\d{4}-\d{4,}$/);
    const heard = await server.orm.em
      .fork()
      .find(WebhookEvent, { type: 'disruption.declared', companyId: partner.companyId });
    expect(heard.map((event) => (event.payload.data as { disruptionId: string }).disruptionId)).toContain(
      disruption.disruptionId,
    );

    const partners = await client.op('listDisruptions', 'GET', '/api/external/v1/disruptions', undefined, {
      token: partner.token,
      query: { area: 'LUKLA' },
    });
    expectStatus(partners, 200);
    expect(partners.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ disruptionId: disruption.disruptionId, status: 'ACTIVE' })]),
    );

    const listed = await ops('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      `${disruption.disruptionId}  ACTIVE  LUKLA  ${today} to ${to}  up to 5 day(s) free`,
    );

    const unknownArea = await ops(
      'declare',
      '--area',
      'JOMSOM',
      '--from',
      today,
      '--to',
      to,
      '--max-days',
      '2',
      '--note',
      'x',
    );
    expect(unknownArea.code).not.toBe(0);
    expect(unknownArea.stderr).toContain('--area: no route of the catalogue is in area JOMSOM (areas: LUKLA)');
    const backwards = await ops(
      'declare',
      '--area',
      'LUKLA',
      '--from',
      to,
      '--to',
      today,
      '--max-days',
      '2',
      '--note',
      'x',
    );
    expect(backwards.code).not.toBe(0);
    expect(backwards.stderr).toContain(`--to must not be before --from ${to}`);
    const tooMany = await ops(
      'declare',
      '--area',
      'LUKLA',
      '--from',
      today,
      '--to',
      to,
      '--max-days',
      '31',
      '--note',
      'x',
    );
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('--max-days must be a whole number of days from 1 to 30');

    const outside = await ops('end', disruption.disruptionId, '--on', addDays(to, 1));
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain(`--on must be within the disruption, ${today} to ${to}`);
    const ended = await ops('end', disruption.disruptionId.toLowerCase(), '--on', addDays(today, 1));
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(`${disruption.disruptionId} ended on ${addDays(today, 1)}`);
    const again = await ops('end', disruption.disruptionId);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`Disruption ${disruption.disruptionId} was already ended on ${addDays(today, 1)}`);
    const endedEvents = await server.orm.em
      .fork()
      .find(WebhookEvent, { type: 'disruption.ended', companyId: partner.companyId });
    expect(endedEvents).toHaveLength(1);
  });
});
