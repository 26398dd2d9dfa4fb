import { CompanyType } from '../../src/modules/partners/entities/company';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { newPartner, type TestPartner } from '../support/partners';
import { openCase, paidOrder, readCase } from '../support/assistance-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/assistance-cases/{caseRef}/decision (decision record 0090): the sandbox plays the
 * assistance desk on a real case, through the desk's own mover: its state machine, its timeline
 * and the real `assistance_case.updated`. client.op checks every answer against the spec's schema
 * for its status.
 */
const { server, client } = useTestServer();
let seller: TestPartner;
let listed: TestPartner;
let otherListed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  seller = await newPartner(server, client, { name: 'Case Decision Sales Pvt. Ltd.', type: CompanyType.SalesCompany });
  listed = await newPartner(server, client, { name: 'Case Decision Agency', type: CompanyType.TravelAgency });
  otherListed = await newPartner(server, client, {
    name: 'Case Decision Other Agency',
    type: CompanyType.TravelAgency,
  });
  stranger = await newPartner(server, client, { name: 'Case Decision Stranger', type: CompanyType.TravelAgency });
});

const decide = (caller: TestPartner, caseRef: string, body: Record<string, unknown>) =>
  client.op(
    'setSandboxAssistanceCaseDecision',
    'POST',
    `/api/external/v1/sandbox/assistance-cases/${encodeURIComponent(caseRef)}/decision`,
    body,
    { token: caller.token },
  );

/** A case on a paid order of the seller listing both agencies, opened by `opener`. */
async function newCase(opener: TestPartner = seller): Promise<string> {
  const order = await paidOrder(server, client, seller, {
    travelCompanyIds: [listed.companyId, otherListed.companyId],
  });
  const opened = await openCase(client, opener, order.orderRef);
  expectStatus(opened, 201);
  return opened.body.data.caseRef as string;
}

const updatedStatuses = async (companyId: string, caseRef: string) =>
  (
    await server.orm.em
      .fork()
      .find(WebhookEvent, { companyId, type: 'assistance_case.updated' }, { orderBy: { createdAt: 'asc', id: 'asc' } })
  )
    .filter((event) => (event.payload.data as { caseRef?: string }).caseRef === caseRef)
    .map((event) => (event.payload.data as { status?: string }).status);

describe('POST /sandbox/assistance-cases/{caseRef}/decision', () => {
  it("when the placing company drives a case to UNDER_REVIEW, AUTHORISED, COMPLETED and CLOSED, then each is the desk's move with its event, and AUTHORISED carries a plausible guarantee", async () => {
    const caseRef = await newCase();
    expectStatus(await decide(seller, caseRef, { decision: 'UNDER_REVIEW' }), 200);
    const authorised = await decide(seller, caseRef, { decision: 'AUTHORISED' });
    expectStatus(authorised, 200);
    expect(authorised.body.data).toMatchObject({
      caseRef,
      status: 'AUTHORISED',
      guarantee: {
        guaranteeRef: `SBX-GOP-${caseRef}`,
        operator: 'Sandbox Heli Rescue',
        costLimit: 650000,
        currency: 'NPR',
        destinationHospital: 'CIWEC Hospital, Kathmandu',
      },
    });
    expect((await decide(seller, caseRef, { decision: 'COMPLETED' })).body.data.status).toBe('COMPLETED');
    const closed = await decide(seller, caseRef, { decision: 'CLOSED', note: 'Evacuated and discharged.' });
    expectStatus(closed, 200);
    expect(closed.body.data.status).toBe('CLOSED');
    const moves = ['UNDER_REVIEW', 'AUTHORISED', 'COMPLETED', 'CLOSED'];
    expect(await updatedStatuses(seller.companyId, caseRef)).toEqual(moves);
    // Every company that may read the case hears of each move, as after the desk's own.
    expect(await updatedStatuses(listed.companyId, caseRef)).toEqual(moves);
    expect((await readCase(client, listed, caseRef)).body.data.status).toBe('CLOSED');
  });

  it('when AUTHORISED comes with guarantee fields, then the guarantee is the one given', async () => {
    const caseRef = await newCase();
    expectStatus(await decide(seller, caseRef, { decision: 'UNDER_REVIEW' }), 200);
    const authorised = await decide(seller, caseRef, {
      decision: 'AUTHORISED',
      guaranteeRef: 'GOP-2030-0412',
      operator: 'Simrik Air',
      costLimit: 420000.5,
      destinationHospital: 'Grande International Hospital',
    });
    expectStatus(authorised, 200);
    expect(authorised.body.data.guarantee).toMatchObject({
      guaranteeRef: 'GOP-2030-0412',
      operator: 'Simrik Air',
      costLimit: 420000.5,
      destinationHospital: 'Grande International Hospital',
    });
  });

  it("when the desk could not make the move from the case's status, then 409 ASSISTANCE_CASE_MOVE_REFUSED and the case keeps its status", async () => {
    const caseRef = await newCase();
    const refused = await decide(seller, caseRef, { decision: 'AUTHORISED' });
    expectStatus(refused, 409);
    expect(refused.body).toMatchObject({
      code: 'ASSISTANCE_CASE_MOVE_REFUSED',
      message: `Assistance case ${caseRef} is RECEIVED; only a UNDER_REVIEW case can be authorised (the desk moves a case one step at a time)`,
    });
    expect((await readCase(client, seller, caseRef)).body.data.status).toBe('RECEIVED');
    expect(await updatedStatuses(seller.companyId, caseRef)).toEqual([]);
  });

  it('when guarantee fields come with another decision, then 400 naming the field', async () => {
    const caseRef = await newCase();
    const refused = await decide(seller, caseRef, { decision: 'UNDER_REVIEW', operator: 'Simrik Air' });
    expectStatus(refused, 400);
    expect(Object.keys(refused.body.details.fieldErrors)).toEqual(['operator']);
    expect((await readCase(client, seller, caseRef)).body.data.status).toBe('RECEIVED');
  });

  it('when the listed agency that opened the case decides, then it moves; another listed agency and a stranger read 404', async () => {
    const caseRef = await newCase(listed);
    for (const outsider of [otherListed, stranger]) {
      const response = await decide(outsider, caseRef, { decision: 'UNDER_REVIEW' });
      expectStatus(response, 404);
      expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: `Assistance case ${caseRef} not found` });
    }
    expect((await decide(listed, caseRef, { decision: 'UNDER_REVIEW' })).body.data.status).toBe('UNDER_REVIEW');
    expect(
      (await decide(listed, caseRef, { decision: 'DECLINED', note: 'Not covered above 6000 m.' })).body.data,
    ).toMatchObject({
      status: 'DECLINED',
    });
    // The placing company may move any case of its order; a declined case has no further move.
    expectStatus(await decide(seller, caseRef, { decision: 'COMPLETED' }), 409);
  });
});
