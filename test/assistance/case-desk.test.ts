import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { AssistanceCase } from '../../src/modules/assistance/entities/assistance-case';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { deskCase, deskMove, deskQueue } from '../../src/modules/assistance';
import { setEndpoint } from '../../src/modules/webhooks/endpoints';
import { OperatorRefusal } from '../../src/kernel/operator-refusal';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { caseRequest, openCase, paidOrder, readCase, withdrawCase } from '../support/assistance-fixtures';
import { sample } from '../support/metrics-sample';
import { FILES, uploadedDocumentId } from '../support/documents';
import { expectStatus } from '../support/expect-status';

// Its own database: the delivery queue of a shared one runs with slower retries, and the desk queue must see only these cases.
// Background jobs on: the case's changes reach the endpoint through the webhook relay and delivery workers.
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'assistance_desk',
  env: { WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_RETRY_DELAY_MAX_SECONDS: '2' },
  backgroundJobs: true,
});
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Desk Test Treks' });
});

type Action = 'REVIEW' | 'AUTHORISE' | 'DECLINE' | 'COMPLETE' | 'CLOSE' | 'WITHDRAW';
type Status = 'RECEIVED' | 'UNDER_REVIEW' | 'AUTHORISED' | 'DECLINED' | 'COMPLETED' | 'CLOSED' | 'WITHDRAWN';

const GUARANTEE = {
  guaranteeRef: 'GOP-2030-0412',
  operator: 'Simrik Air',
  costLimit: 65_000_000,
  currency: 'NPR',
  destinationHospital: 'CIWEC Hospital, Kathmandu',
};
const DESK = 'operator-cli:desk-test';

/** The sentence, written out: every move allowed, and where it leads. Everything else is refused. */
const ALLOWED: Partial<Record<Status, Partial<Record<Action, Status>>>> = {
  RECEIVED: { REVIEW: 'UNDER_REVIEW', WITHDRAW: 'WITHDRAWN' },
  UNDER_REVIEW: { AUTHORISE: 'AUTHORISED', DECLINE: 'DECLINED', WITHDRAW: 'WITHDRAWN' },
  AUTHORISED: { COMPLETE: 'COMPLETED' },
  COMPLETED: { CLOSE: 'CLOSED' },
};

/** The moves that bring a new case to each status. */
const PATH: Record<Status, Action[]> = {
  RECEIVED: [],
  UNDER_REVIEW: ['REVIEW'],
  AUTHORISED: ['REVIEW', 'AUTHORISE'],
  DECLINED: ['REVIEW', 'DECLINE'],
  COMPLETED: ['REVIEW', 'AUTHORISE', 'COMPLETE'],
  CLOSED: ['REVIEW', 'AUTHORISE', 'COMPLETE', 'CLOSE'],
  WITHDRAWN: ['WITHDRAW'],
};

/** The desk moves through its function (what `ops case` calls); the partner withdraws through the API. */
async function act(caseRef: string, action: Action): Promise<{ ok: true } | { ok: false; message: string }> {
  if (action === 'WITHDRAW') {
    const answer = await withdrawCase(client, partner, caseRef);
    return answer.status === 200 ? { ok: true } : { ok: false, message: `${answer.status} ${answer.body.message}` };
  }
  try {
    await deskMove(server.orm.em.fork(), caseRef, action, {
      actor: DESK,
      note: action === 'DECLINE' ? 'Not a medical emergency: walk down with the guide.' : undefined,
      guarantee: action === 'AUTHORISE' ? GUARANTEE : undefined,
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof OperatorRefusal) return { ok: false, message: error.message };
    throw error;
  }
}

async function caseIn(status: Status): Promise<string> {
  const order = await paidOrder(server, client, partner);
  const { caseRef } = (await openCase(client, partner, order.orderRef)).body.data;
  for (const step of PATH[status]) expect(await act(caseRef, step)).toEqual({ ok: true });
  return caseRef;
}

const eventsOf = (caseRef: string) =>
  server.orm.em
    .fork()
    .find(WebhookEvent, { payload: { data: { caseRef } } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
const auditOf = async (caseRef: string) =>
  (await server.orm.em.fork().find(AuditEntry, { action: 'ASSISTANCE_CASE_STATUS_CHANGED' })).filter(
    (entry) => entry.details.caseRef === caseRef,
  );

const MATRIX = (Object.keys(PATH) as Status[]).flatMap((status) =>
  (['REVIEW', 'AUTHORISE', 'DECLINE', 'COMPLETE', 'CLOSE', 'WITHDRAW'] as Action[]).map(
    (action) => [status, action] as const,
  ),
);

describe('the case state machine, every move from every status', () => {
  it.each(MATRIX)('from %s, %s', async (status, action) => {
    const caseRef = await caseIn(status);
    const [eventsBefore, auditBefore] = [(await eventsOf(caseRef)).length, (await auditOf(caseRef)).length];
    const to = ALLOWED[status]?.[action];
    const result = await act(caseRef, action);
    const after = await server.orm.em.fork().findOneOrFail(AssistanceCase, { caseRef });
    const events = await eventsOf(caseRef);
    if (to) {
      expect(result).toEqual({ ok: true });
      expect(after.status).toBe(to);
      // Exactly one event, and one audit entry, for the move.
      const added = events.slice(eventsBefore);
      expect(added.map((event) => [event.type, event.payload.data])).toEqual([
        ['assistance_case.updated', expect.objectContaining({ status: to, previousStatus: status })],
      ]);
      expect((await auditOf(caseRef)).length).toBe(auditBefore + 1);
    } else {
      expect(result).toEqual({ ok: false, message: expect.stringContaining(`is ${status}`) });
      expect(after.status).toBe(status);
      expect(events.length).toBe(eventsBefore);
      expect((await auditOf(caseRef)).length).toBe(auditBefore);
    }
  });
});

describe('the desk', () => {
  it('when it authorises, then the guarantee of payment is on the case for the partner, with its words in the timeline', async () => {
    const caseRef = await caseIn('AUTHORISED');
    const read = (await readCase(client, partner, caseRef)).body.data;
    expect(read.guarantee).toEqual({
      guaranteeRef: 'GOP-2030-0412',
      operator: 'Simrik Air',
      costLimit: 650000,
      currency: 'NPR',
      destinationHospital: 'CIWEC Hospital, Kathmandu',
      authorisedAt: expect.any(String),
    });
    expect(read.timeline.at(-1)).toMatchObject({
      kind: 'STATUS_CHANGED',
      by: 'DESK',
      status: 'AUTHORISED',
      note: 'Guarantee GOP-2030-0412 to Simrik Air, up to NPR 650,000.00, to CIWEC Hospital, Kathmandu',
    });
  });

  it('when it declines, then the partner reads the reason', async () => {
    const caseRef = await caseIn('DECLINED');
    expect((await readCase(client, partner, caseRef)).body.data).toMatchObject({
      status: 'DECLINED',
      declineReason: 'Not a medical emergency: walk down with the guide.',
    });
  });

  it('sees the oldest unreviewed case first, then the others oldest first', async () => {
    const reviewed = await caseIn('UNDER_REVIEW');
    const older = await caseIn('RECEIVED');
    const newer = await caseIn('RECEIVED');
    const queue = (await deskQueue(server.orm.em.fork())).map((assistanceCase) => assistanceCase.caseRef);
    expect(queue.indexOf(older)).toBeLessThan(queue.indexOf(newer));
    expect(queue.indexOf(newer)).toBeLessThan(queue.indexOf(reviewed));
    expect(queue.slice(queue.indexOf(newer) + 1).every((caseRef) => caseRef !== older)).toBe(true);
  });

  it('reads what the Tourist Police must be told: name, nationality, passport number, location, time', async () => {
    const caseRef = await caseIn('RECEIVED');
    const shown = await deskCase(server.orm.em.fork(), caseRef);
    expect(shown.police).toEqual({
      name: shown.assistanceCase.traveller.name,
      nationality: shown.assistanceCase.traveller.nationality,
      passportNumber: shown.assistanceCase.traveller.idNumber,
      location: 'Gorak Shep lodge, Everest Base Camp trek, 27.9881, 86.925, 2900 m',
      time: shown.assistanceCase.openedAt.toISOString(),
    });
  });
});

describe('assistance webhooks', () => {
  it('when a case goes from opening to closing, then the endpoint gets each change once, verified by the Standard Webhooks library', async () => {
    const receiver = new WebhookReceiver();
    const subscriber = await newPartner(server, client, { name: 'Webhook Desk Treks' });
    const endpoint = await setEndpoint(server.orm.em.fork(), subscriber.companyId, await receiver.start(), {
      allowLocalEndpoints: true,
    });
    receiver.secret = endpoint.secret ?? '';
    const order = await paidOrder(server, client, subscriber);
    const { caseRef } = (await openCase(client, subscriber, order.orderRef, caseRequest())).body.data;
    for (const action of ['REVIEW', 'AUTHORISE', 'COMPLETE', 'CLOSE'] as const) {
      await deskMove(server.orm.em.fork(), caseRef, action, {
        actor: DESK,
        guarantee: action === 'AUTHORISE' ? GUARANTEE : undefined,
      });
    }
    const ofCase = () =>
      receiver.unique().filter((event) => event.type.startsWith('assistance_case.') && event.data.caseRef === caseRef);
    await receiver.waitFor(() => ofCase().length === 5);
    const statuses = ofCase()
      .map((event) => [event.type, event.data.previousStatus, event.data.status])
      .sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    expect(statuses).toEqual([
      ['assistance_case.updated', 'UNDER_REVIEW', 'AUTHORISED'],
      ['assistance_case.updated', 'COMPLETED', 'CLOSED'],
      ['assistance_case.updated', 'AUTHORISED', 'COMPLETED'],
      ['assistance_case.opened', null, 'RECEIVED'],
      ['assistance_case.updated', 'RECEIVED', 'UNDER_REVIEW'],
    ]);
    expect(receiver.rejected).toBe(0);
    await receiver.stop();
  });
});

describe('the desk in /metrics', () => {
  const scrape = async () => (await client.op<string>('getMetrics', 'GET', '/metrics')).body;

  it('reports open cases by status, as the database holds them', async () => {
    await caseIn('RECEIVED');
    await caseIn('AUTHORISED');
    const exposition = await scrape();
    for (const status of ['RECEIVED', 'UNDER_REVIEW', 'AUTHORISED', 'COMPLETED'] as const) {
      const held = await server.orm.em.fork().count(AssistanceCase, { status });
      expect([status, sample(exposition, 'assistance_cases_open', { status })]).toEqual([status, held]);
    }
    expect(sample(exposition, 'assistance_cases_open', { status: 'CLOSED' })).toBeUndefined();
  });

  it('times RECEIVED to UNDER_REVIEW for each reviewed case in assistance_case_seconds_to_review', async () => {
    const caseRef = await caseIn('RECEIVED');
    // Opened twelve minutes ago: its review falls between the 600 s and the 900 s buckets, where no quick review of this file does.
    await server.orm.em.fork().nativeUpdate(AssistanceCase, { caseRef }, { openedAt: new Date(Date.now() - 720_000) });
    await deskMove(server.orm.em.fork(), caseRef, 'REVIEW', { actor: DESK });
    const exposition = await scrape();
    const reviewed = await server.orm.em.fork().count(AssistanceCase, { reviewedAt: { $ne: null } });
    expect(sample(exposition, 'assistance_case_seconds_to_review_count')).toBe(reviewed);
    const bucket = (le: string) => sample(exposition, 'assistance_case_seconds_to_review_bucket', { le }) ?? Number.NaN;
    expect(bucket('900') - bucket('600')).toBe(1);
    expect(bucket('+Inf')).toBe(reviewed);
  });
});

describe('the invariant checker', () => {
  it('counts a MEDICAL_REPORT attached to a case as attached, not as an orphan', async () => {
    const order = await paidOrder(server, client, partner);
    const report = await uploadedDocumentId(client, partner.token, 'MEDICAL_REPORT', FILES.jpeg);
    expectStatus(await openCase(client, partner, order.orderRef, caseRequest({ documentIds: [report] })), 201);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.resolve(__dirname, '../../scripts/check-invariants.mjs')],
      { env: { ...process.env, DATABASE_URL: databaseUrl() } },
    );
    expect(stdout).toContain('invariants: 0 violations');
  });
});
