import { CompanyType } from '../../src/modules/partners/entities/company';
import type { RunningServer } from '../../src/server';
import { opsOutput, runOps } from '../support/built-cli';
import { buildServer } from '../support/built-server';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { startTestServer } from '../support/test-server';
import { caseRequest, listCases, openCase, paidOrder, readCase, updateCase } from '../support/assistance-fixtures';
import { expectStatus } from '../support/expect-status';

// Every desk step is an `ops` process start (about a second on a loaded machine).
jest.setTimeout(240_000);

/** One `ops` command in its own process, as the desk runs it beside the server (asynchronous: the server runs in this process). */
const ops = (...args: string[]) => runOps(process.env.TEST_DATABASE_URL ?? '', args);
const desk = (...args: string[]) => opsOutput(process.env.TEST_DATABASE_URL ?? '', ['case', ...args]);

let server: RunningServer;
let client: ApiClient;
let placing: TestPartner;
let agency: TestPartner;

beforeAll(async () => {
  buildServer();
  server = await startTestServer();
  client = new ApiClient(server.url);
  placing = await newPartner(server, client, { name: 'Everest Sales Pvt. Ltd.', type: CompanyType.SalesCompany });
  agency = await newPartner(server, client, { name: 'Khumbu Ground Agency' });
}, 120_000);
afterAll(() => server.stop());

describe('a whole assistance case, the partner API and the desk in their own processes', () => {
  it('opened by the agency on the ground, updated, reviewed, authorised with a guarantee, completed and closed; the partner reads the timeline at each step', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [agency.companyId] });
    const opened = await openCase(client, agency, order.orderRef, caseRequest({ altitudeMeters: 5164 }));
    expectStatus(opened, 201);
    const { caseRef } = opened.body.data;
    const timeline = async () =>
      (await readCase(client, placing, caseRef)).body.data.timeline.map(
        (entry: { kind: string; status: string }) => `${entry.kind}:${entry.status}`,
      );
    expect(await timeline()).toEqual(['OPENED:RECEIVED']);

    expectStatus(
      await updateCase(client, agency, caseRef, {
        altitudeMeters: 4940,
        location: { placeName: 'Lobuche' },
        note: 'Carried down to Lobuche.',
      }),
      200,
    );
    expect(await timeline()).toEqual(['OPENED:RECEIVED', 'PARTNER_UPDATE:RECEIVED']);

    const queue = await desk('list');
    expect(queue).toContain(caseRef);
    const shown = await desk('show', caseRef);
    expect(shown).toContain('Tourist Police notification');
    expect(shown).toMatch(/passport number: \S+/);
    expect(shown).toContain('location: Lobuche, 4940 m');

    expect(await desk('review', caseRef)).toContain(`${caseRef} is now UNDER_REVIEW`);
    expect(await timeline()).toEqual(['OPENED:RECEIVED', 'PARTNER_UPDATE:RECEIVED', 'STATUS_CHANGED:UNDER_REVIEW']);

    await desk(
      'authorise',
      caseRef,
      '--guarantee-ref',
      'GOP-2030-0412',
      '--operator',
      'Simrik Air',
      '--cost-limit',
      '650000',
      '--hospital',
      'CIWEC Hospital, Kathmandu',
    );
    const authorised = (await readCase(client, agency, caseRef)).body.data;
    expect(authorised).toMatchObject({
      status: 'AUTHORISED',
      guarantee: {
        guaranteeRef: 'GOP-2030-0412',
        operator: 'Simrik Air',
        costLimit: 650000,
        currency: 'NPR',
        destinationHospital: 'CIWEC Hospital, Kathmandu',
      },
    });
    expect(await timeline()).toEqual([
      'OPENED:RECEIVED',
      'PARTNER_UPDATE:RECEIVED',
      'STATUS_CHANGED:UNDER_REVIEW',
      'STATUS_CHANGED:AUTHORISED',
    ]);

    const refused = await ops('case', 'close', caseRef);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${caseRef} is AUTHORISED; only a COMPLETED case can be closed`);

    await desk('complete', caseRef, '--note', 'Flown to Kathmandu; admitted at CIWEC.');
    expect(await timeline()).toEqual([
      'OPENED:RECEIVED',
      'PARTNER_UPDATE:RECEIVED',
      'STATUS_CHANGED:UNDER_REVIEW',
      'STATUS_CHANGED:AUTHORISED',
      'STATUS_CHANGED:COMPLETED',
    ]);
    await desk('close', caseRef);
    const closed = (await readCase(client, placing, caseRef)).body.data;
    expect(closed.status).toBe('CLOSED');
    expect(closed.timeline.map((entry: { status: string }) => entry.status)).toEqual([
      'RECEIVED',
      'RECEIVED',
      'UNDER_REVIEW',
      'AUTHORISED',
      'COMPLETED',
      'CLOSED',
    ]);
    expect(
      (await listCases(client, agency, `?orderRef=${order.orderRef}&status=CLOSED`)).body.data.content.map(
        (item: { caseRef: string }) => item.caseRef,
      ),
    ).toEqual([caseRef]);

    const audit = JSON.parse(await desk('show', caseRef, '--json')).audit.map(
      (entry: { action: string }) => entry.action,
    );
    expect(audit).toEqual([
      'ASSISTANCE_CASE_OPENED',
      'ASSISTANCE_CASE_STATUS_CHANGED',
      'ASSISTANCE_CASE_STATUS_CHANGED',
      'ASSISTANCE_CASE_STATUS_CHANGED',
      'ASSISTANCE_CASE_STATUS_CHANGED',
    ]);
  });

  it('when the desk declines, then the reason is what the partner reads', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    await desk('review', caseRef);
    await desk(
      'decline',
      caseRef,
      '--reason',
      'Not a medical emergency: descend with the guide and call again if worse.',
    );
    expect((await readCase(client, placing, caseRef)).body.data).toMatchObject({
      status: 'DECLINED',
      declineReason: 'Not a medical emergency: descend with the guide and call again if worse.',
    });
  });

  it('when authorise lacks a sound cost limit, then the command refuses and the case stays UNDER_REVIEW', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    await desk('review', caseRef);
    const refused = await ops(
      'case',
      'authorise',
      caseRef,
      '--guarantee-ref',
      'GOP-1',
      '--operator',
      'Simrik Air',
      '--cost-limit',
      'lots',
      '--hospital',
      'CIWEC',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--cost-limit must be an amount');
    expect((await readCase(client, placing, caseRef)).body.data.status).toBe('UNDER_REVIEW');
  });
});
