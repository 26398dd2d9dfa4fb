import { randomUUID } from 'node:crypto';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { Claim } from '../../src/modules/claims/entities/claim';
import { ClaimPayout } from '../../src/modules/claims/entities/claim-payout';
import { deskMove } from '../../src/modules/claims/desk';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { Order } from '../../src/modules/orders/entities/order';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { OperatorRefusal } from '../../src/kernel/operator-refusal';
import { paidOrder } from '../support/assistance-fixtures';
import {
  answerClaim,
  claimRequest,
  coverAround,
  decideClaim,
  fileClaim,
  listClaims,
  readClaim,
  withdrawClaim,
} from '../support/claim-fixtures';
import { expectSchema } from '../support/contract';
import { FILES, uploadedDocumentId } from '../support/documents';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder, type PlacedOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

const { server, client } = useTestServer();
let placing: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Khumbu Claims Treks Pvt. Ltd.' });
  listed = await newPartner(server, client, { name: 'Listed Claims Agency' });
  stranger = await newPartner(server, client, { name: 'Stranger Claims Treks' });
});

/** A paid order of `placing` listing `listed`, its cover from two days ago for a week. */
async function coveredOrder(): Promise<PlacedOrder> {
  const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
  await coverAround(server, order.orderId);
  return order;
}

const claimsOf = (orderId: string) => server.orm.em.fork().count(Claim, { order: orderId });

async function eventsOf(claimRef: string, type: string) {
  return server.orm.em.fork().find(WebhookEvent, { type: type, payload: { data: { claimRef } } });
}

describe('POST /orders/{orderRef}/claims', () => {
  it('when the placing company files on a paid order, then the claim is SUBMITTED with its CLM reference, checklist, flags and the desk, and claim.submitted goes to the placing company and the listed agency', async () => {
    const order = await coveredOrder();
    const answer = await fileClaim(client, placing, order.orderRef);
    expectStatus(answer, 201);
    const data = answer.body.data;
    expect(data).toMatchObject({
      orderRef: order.orderRef,
      status: 'SUBMITTED',
      claimType: 'MEDICAL_EXPENSES',
      policyNumber: expect.stringMatching(/^SBX-POL-/),
      flags: ['CURRENCY_CONVERSION'],
      documentsNeeded: ['INVOICE', 'MEDICAL_REPORT'],
      decision: null,
      payout: null,
      items: [expect.objectContaining({ position: 1, amount: 420, currency: 'USD', decision: null })],
      desk: { phone: '+977 1 4000 000', instruction: expect.stringContaining(data.claimRef) },
    });
    expect(data.claimRef).toMatch(new RegExp(`^CLM-${kathmanduToday().slice(0, 4)}-\\d{6,}$`));
    expect(data.timeline).toEqual([
      expect.objectContaining({ kind: 'FILED', by: 'PARTNER', status: 'SUBMITTED', previousStatus: null }),
    ]);
    const events = await eventsOf(data.claimRef, 'claim.submitted');
    expect(events.map((event) => event.companyId).sort()).toEqual([placing.companyId, listed.companyId].sort());
    for (const event of events) expectSchema('ClaimSubmittedEvent', event.payload);
    const audit = await server.orm.em.fork().find(AuditEntry, { order: order.orderId, action: 'CLAIM_FILED' });
    expect(audit).toHaveLength(1);
  });

  it('when a registered agency listed on the order files, then it may; a company neither placing nor listed is a 403 and nothing is written', async () => {
    const order = await coveredOrder();
    expectStatus(await fileClaim(client, listed, order.orderRef), 201);
    expectStatus(await fileClaim(client, stranger, order.orderRef), 403);
    expect(await claimsOf(order.orderId)).toBe(1);
  });

  it('when the order is named by its order number or its id, then the claim is filed on it as by its reference; a reference no order has is a 404 and a stranger naming it by its id a 403', async () => {
    const order = await coveredOrder();
    const byNumber = await fileClaim(client, placing, order.orderNumber);
    expectStatus(byNumber, 201);
    expect(byNumber.body.data.orderRef).toBe(order.orderRef);
    const byId = await fileClaim(client, listed, order.orderId.toUpperCase());
    expectStatus(byId, 201);
    expect(byId.body.data.orderRef).toBe(order.orderRef);
    expectStatus(await fileClaim(client, stranger, order.orderId), 403);
    const unknown = await fileClaim(client, placing, 'ORD-2026-999999');
    expectStatus(unknown, 404);
    expect(unknown.body.message).toBe('Order ORD-2026-999999 not found');
    expect(await claimsOf(order.orderId)).toBe(2);
  });

  it('when the same Idempotency-Key and body come again, then the same claim is answered; another body under it is a 409', async () => {
    const order = await coveredOrder();
    const key = randomUUID();
    const body = claimRequest();
    const first = await fileClaim(client, placing, order.orderRef, body, key);
    expectStatus(first, 201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const again = await fileClaim(client, placing, order.orderRef, body, key);
    expectStatus(again, 201);
    expect(again.body.data.claimRef).toBe(first.body.data.claimRef);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    const other = await fileClaim(client, placing, order.orderRef, claimRequest(), key);
    expectStatus(other, 409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await claimsOf(order.orderId)).toBe(1);
  });

  it('when one Idempotency-Key is used at once for claims on two orders, 5 times, then one claim is filed and the other answer is a 409 IDEMPOTENCY_KEY_REUSED', async () => {
    for (let round = 0; round < 5; round++) {
      const [first, second] = await Promise.all([coveredOrder(), coveredOrder()]);
      if (!first || !second) throw new Error('two orders were placed');
      const key = randomUUID();
      const answers = await Promise.all(
        [first, second].map((order) => fileClaim(client, placing, order.orderRef, claimRequest(), key)),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const refused = answers.find((answer) => answer.status === 409);
      if (refused) expectStatus(refused, 409);
      expect(refused?.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await claimsOf(first.orderId)) + (await claimsOf(second.orderId))).toBe(1);
    }
  });

  it('when the order is not paid, then a 400 ORDER_NOT_PAID and nothing is written', async () => {
    const order = await placeOrder(server, client, placing);
    const answer = await fileClaim(client, placing, order.orderRef);
    expectStatus(answer, 400);
    expect(answer.body.code).toBe('ORDER_NOT_PAID');
    expect(await claimsOf(order.orderId)).toBe(0);
  });

  it('when the order was cancelled before the incident, then a 400 ORDER_ALREADY_CANCELLED', async () => {
    const order = await coveredOrder();
    const em = server.orm.em.fork();
    await em.nativeUpdate(Order, { id: order.orderId }, { status: 'CANCELLED' as Order['status'] });
    const answer = await fileClaim(client, placing, order.orderRef);
    // Put back: a cancellation made this way has no refund, and the files after this one share the database.
    await em.nativeUpdate(Order, { id: order.orderId }, { status: 'PAID' as Order['status'] });
    expectStatus(answer, 400);
    expect(answer.body.code).toBe('ORDER_ALREADY_CANCELLED');
  });

  it('when the incident is outside the cover window or after today, then a 400 INCIDENT_OUTSIDE_COVER', async () => {
    const order = await coveredOrder();
    const before = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ incidentDate: addDays(kathmanduToday(), -3) }),
    );
    expectStatus(before, 400);
    expect(before.body.code).toBe('INCIDENT_OUTSIDE_COVER');
    const tomorrow = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ incidentDate: addDays(kathmanduToday(), 1) }),
    );
    expectStatus(tomorrow, 400);
    expect(tomorrow.body.code).toBe('INCIDENT_OUTSIDE_COVER');
    expect(await claimsOf(order.orderId)).toBe(0);
  });

  it('when the package has no line for the claim type, then a 400 CLAIM_TYPE_NOT_COVERED', async () => {
    const order = await coveredOrder();
    const answer = await fileClaim(client, placing, order.orderRef, claimRequest({ claimType: 'PERSONAL_ACCIDENT' }));
    expectStatus(answer, 400);
    expect(answer.body.code).toBe('CLAIM_TYPE_NOT_COVERED');
  });

  it('when the cover ended more than 90 days ago, then a 400 CLAIM_NOTICE_EXPIRED', async () => {
    const order = await coveredOrder();
    await coverAround(server, order.orderId, -100, 5);
    const answer = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ incidentDate: addDays(kathmanduToday(), -98) }),
    );
    expectStatus(answer, 400);
    expect(answer.body.code).toBe('CLAIM_NOTICE_EXPIRED');
  });

  it('when an invoice is already claimed on the policy, then a 409 naming the claim; once that claim is withdrawn it can be claimed again', async () => {
    const order = await coveredOrder();
    const body = claimRequest();
    const first = (await fileClaim(client, placing, order.orderRef, body)).body.data;
    const duplicate = await fileClaim(client, listed, order.orderRef, body);
    expectStatus(duplicate, 409);
    expect(duplicate.body.code).toBe('CLAIM_DUPLICATE_INVOICE');
    expect(duplicate.body.message).toContain(first.claimRef);
    expectStatus(await withdrawClaim(client, placing, first.claimRef), 200);
    expectStatus(await fileClaim(client, placing, order.orderRef, body), 201);
  });

  it('when partner text carries a direction override or a line break, then a 400 field error and nothing is written', async () => {
    const order = await coveredOrder();
    const answer = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ incidentDescription: 'Fell on the trail\u202Eevil', location: 'Namche\nBazaar' }),
    );
    expectStatus(answer, 400);
    expect(Object.keys(answer.body.details.fieldErrors).sort()).toEqual(['incidentDescription', 'location']);
    expect(await claimsOf(order.orderId)).toBe(0);
  });

  it('when two items repeat one invoice, then a 400 naming the second', async () => {
    const order = await coveredOrder();
    const item = { description: 'Oxygen', amount: 10, currency: 'NPR', invoiceNumber: 'X-1', providerName: 'Aid post' };
    const answer = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ items: [item, { ...item, invoiceNumber: ' x-1' }] }),
    );
    expectStatus(answer, 400);
    expect(Object.keys(answer.body.details.fieldErrors)).toEqual(['items[1].invoiceNumber']);
  });

  it('when claim documents are attached, then they tick the checklist; a document of another type or another company is a 400 naming it and nothing is written', async () => {
    const order = await coveredOrder();
    const invoice = await uploadedDocumentId(client, placing.token, 'INVOICE', FILES.pdf);
    const report = await uploadedDocumentId(client, placing.token, 'MEDICAL_REPORT', FILES.pdf);
    const passport = await uploadedDocumentId(client, placing.token, 'PASSPORT', FILES.jpeg);
    const strangers = await uploadedDocumentId(client, stranger.token, 'RECEIPT', FILES.pdf);
    const base = claimRequest();
    const items = base.items as Array<Record<string, unknown>>;
    const refused = await fileClaim(client, placing, order.orderRef, { ...base, documentIds: [report, passport] });
    expectStatus(refused, 400);
    expect(refused.body.details.fieldErrors['documentIds[1]']).toContain('PASSPORT');
    const foreign = await fileClaim(client, placing, order.orderRef, { ...base, documentIds: [strangers] });
    expectStatus(foreign, 400);
    expect(await claimsOf(order.orderId)).toBe(0);
    const answer = await fileClaim(client, placing, order.orderRef, {
      ...base,
      documentIds: [report],
      items: [{ ...items[0], documentIds: [invoice] }],
    });
    expectStatus(answer, 201);
    expect(answer.body.data.documentsNeeded).toEqual([]);
    expect(answer.body.data.items[0].documentIds).toEqual([invoice]);
    expect(answer.body.data.documents).toHaveLength(2);
    expect(answer.body.data.documents).toEqual(
      expect.arrayContaining([
        { documentId: report, documentType: 'MEDICAL_REPORT', itemPosition: null },
        { documentId: invoice, documentType: 'INVOICE', itemPosition: 1 },
      ]),
    );
    // Medical reports are the placing company's and the desk's alone.
    const seenByAgency = await readClaim(client, listed, answer.body.data.claimRef);
    expectStatus(seenByAgency, 200);
    expect(seenByAgency.body.data.documents.map((document: { documentId: string }) => document.documentId)).toEqual([
      invoice,
    ]);
    const again = await fileClaim(client, placing, order.orderRef, { ...claimRequest(), documentIds: [report] });
    expectStatus(again, 400);
    expect(again.body.details.fieldErrors['documentIds[0]']).toBe('is already attached');
  });

  it('when an evacuation is claimed without an authorised case above the package altitude, then it is filed with both flags', async () => {
    const order = await coveredOrder();
    const answer = await fileClaim(
      client,
      placing,
      order.orderRef,
      claimRequest({ claimType: 'EMERGENCY_EVACUATION', altitudeMeters: 5164, location: 'Gorak Shep' }),
    );
    expectStatus(answer, 201);
    expect(answer.body.data.flags).toEqual(['ALTITUDE_ABOVE_COVER', 'NO_ASSISTANCE_CASE', 'CURRENCY_CONVERSION']);
  });
});

describe('filings at once', () => {
  it('when one invoice is filed six times at once under different keys, then one claim is written and the five others are 409s naming it', async () => {
    const order = await coveredOrder();
    const body = claimRequest();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fileClaim(client, placing, order.orderRef, body)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const filed = answers.find((answer) => answer.status === 201)!.body.data.claimRef;
    for (const answer of answers.filter((each) => each.status === 409)) expect(answer.body.message).toContain(filed);
    expect(await claimsOf(order.orderId)).toBe(1);
  });

  it('when one Idempotency-Key is sent six times at once, then one claim is written and every answer is it', async () => {
    const order = await coveredOrder();
    const key = randomUUID();
    const body = claimRequest();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fileClaim(client, placing, order.orderRef, body, key)),
    );
    for (const answer of answers) expectStatus(answer, 201);
    expect(new Set(answers.map((answer) => answer.body.data.claimRef)).size).toBe(1);
    expect(await claimsOf(order.orderId)).toBe(1);
  });
});

describe('GET /claims and GET /claims/{claimRef}', () => {
  it('lists the claims of orders the caller placed or is listed on, newest first, with the filters; a stranger sees none of them', async () => {
    const order = await coveredOrder();
    const older = (await fileClaim(client, placing, order.orderRef)).body.data;
    const newer = (await fileClaim(client, placing, order.orderRef, claimRequest({ claimType: 'TRIP_CANCELLATION' })))
      .body.data;
    for (const caller of [placing, listed]) {
      const page = await listClaims(client, caller, `?orderRef=${order.orderRef}`);
      expectStatus(page, 200);
      expect(page.body.data.content.map((claim: { claimRef: string }) => claim.claimRef)).toEqual([
        newer.claimRef,
        older.claimRef,
      ]);
    }
    const byType = await listClaims(client, placing, `?orderRef=${order.orderRef}&claimType=TRIP_CANCELLATION`);
    expect(byType.body.data.content.map((claim: { claimRef: string }) => claim.claimRef)).toEqual([newer.claimRef]);
    const byStatus = await listClaims(client, placing, `?orderRef=${order.orderRef}&status=WITHDRAWN`);
    expect(byStatus.body.data.totalElements).toBe(0);
    const oldestFirst = await listClaims(client, placing, `?orderRef=${order.orderRef}&sortDir=asc`);
    expect(oldestFirst.body.data.content[0].claimRef).toBe(older.claimRef);
    const filedAt = Date.parse(newer.filedAt);
    const sinceNewer = await listClaims(
      client,
      placing,
      `?orderRef=${order.orderRef}&createdFrom=${encodeURIComponent(new Date(filedAt).toISOString())}`,
    );
    expect(sinceNewer.body.data.content.map((claim: { claimRef: string }) => claim.claimRef)).toEqual([newer.claimRef]);
    const beforeNewer = await listClaims(
      client,
      placing,
      `?orderRef=${order.orderRef}&createdTo=${encodeURIComponent(new Date(filedAt).toISOString())}`,
    );
    expect(beforeNewer.body.data.content.map((claim: { claimRef: string }) => claim.claimRef)).toEqual([
      older.claimRef,
    ]);
    const none = await listClaims(client, stranger, `?orderRef=${order.orderRef}`);
    expect(none.body.data.totalElements).toBe(0);
    expectStatus(await readClaim(client, stranger, older.claimRef), 404);
    expectStatus(await listClaims(client, placing, '?sortBy=amount'), 400);
  });
});

describe('answers, withdrawal and the sandbox desk', () => {
  it('when the desk asks for information, then claim.information_requested is sent and the answer moves the claim back UNDER_ASSESSMENT with its documents', async () => {
    const order = await coveredOrder();
    const { claimRef } = (await fileClaim(client, placing, order.orderRef)).body.data;
    const early = await answerClaim(client, placing, claimRef, { note: 'Nothing was asked yet' });
    expectStatus(early, 400);
    expect(early.body.code).toBe('CLAIM_MOVE_NOT_ALLOWED');
    const asked = await decideClaim(client, placing, claimRef, {
      decision: 'INFORMATION_REQUESTED',
      note: 'Send the medical report',
    });
    expectStatus(asked, 200);
    expect(asked.body.data.status).toBe('INFORMATION_REQUESTED');
    const requested = await eventsOf(claimRef, 'claim.information_requested');
    expect(requested).toHaveLength(2);
    expect(requested[0]?.payload).toMatchObject({
      data: { note: 'Send the medical report', previousStatus: 'UNDER_ASSESSMENT' },
    });
    const report = await uploadedDocumentId(client, placing.token, 'MEDICAL_REPORT', FILES.pdf);
    const answered = await answerClaim(client, placing, claimRef, { note: 'Report attached', documentIds: [report] });
    expectStatus(answered, 200);
    expect(answered.body.data.status).toBe('UNDER_ASSESSMENT');
    expect(answered.body.data.timeline.at(-1)).toMatchObject({
      kind: 'STATUS_CHANGED',
      by: 'PARTNER',
      previousStatus: 'INFORMATION_REQUESTED',
      note: 'Report attached',
      documentIds: [report],
    });
    // The listed agency does not see the medical report, in the documents or in the timeline.
    const seenByAgency = (await readClaim(client, listed, claimRef)).body.data;
    expect(seenByAgency.documents).toEqual([]);
    expect(seenByAgency.timeline.at(-1).documentIds).toEqual([]);
  });

  it('when the partner withdraws before a decision, then WITHDRAWN with claim.withdrawn; a second withdrawal is a 400', async () => {
    const order = await coveredOrder();
    const { claimRef } = (await fileClaim(client, placing, order.orderRef)).body.data;
    const answer = await withdrawClaim(client, placing, claimRef, 'Another insurer pays');
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({ status: 'WITHDRAWN', withdrawalReason: 'Another insurer pays' });
    expect(await eventsOf(claimRef, 'claim.withdrawn')).toHaveLength(2);
    const again = await withdrawClaim(client, placing, claimRef);
    expectStatus(again, 400);
    expect(again.body.code).toBe('CLAIM_MOVE_NOT_ALLOWED');
    const decided = await decideClaim(client, placing, claimRef, { decision: 'APPROVED' });
    expectStatus(decided, 409);
    expect(decided.body.code).toBe('CLAIM_MOVE_NOT_ALLOWED');
  });

  it('when the sandbox desk approves without amounts, then every item in full at the sandbox rate less the excess (USD 420 x 133.50 - 5,000 = 51,070), and PAID records the payout', async () => {
    const order = await coveredOrder();
    const { claimRef } = (await fileClaim(client, placing, order.orderRef)).body.data;
    const approved = await decideClaim(client, placing, claimRef, { decision: 'APPROVED', note: 'In full' });
    expectStatus(approved, 200);
    expect(approved.body.data).toMatchObject({
      status: 'APPROVED',
      items: [
        expect.objectContaining({
          decision: {
            approvedAmount: 420,
            exchangeRate: '133.5000',
            rateDate: kathmanduToday(),
            approvedNpr: 56070,
            note: null,
          },
        }),
      ],
      decision: expect.objectContaining({
        approvedTotal: 51070,
        excessApplied: 5000,
        declineReason: null,
        note: 'In full',
      }),
    });
    const decided = await eventsOf(claimRef, 'claim.decided');
    expect(decided).toHaveLength(2);
    for (const event of decided) expectSchema('ClaimDecidedEvent', event.payload);
    expectStatus(await withdrawClaim(client, placing, claimRef), 400);
    const paid = await decideClaim(client, placing, claimRef, { decision: 'PAID' });
    expectStatus(paid, 200);
    expect(paid.body.data.payout).toEqual({
      amount: 51070,
      currency: 'NPR',
      method: 'BANK_TRANSFER',
      reference: `SBX-${claimRef}`,
      paidOn: kathmanduToday(),
    });
    const paidEvents = await eventsOf(claimRef, 'claim.paid');
    for (const event of paidEvents) expectSchema('ClaimPaidEvent', event.payload);
    expect(paidEvents).toHaveLength(2);
    expect(await server.orm.em.fork().count(ClaimPayout, { claim: { claimRef } })).toBe(1);
    expect(paid.body.data.timeline.map((entry: { status: string }) => entry.status)).toEqual([
      'SUBMITTED',
      'UNDER_ASSESSMENT',
      'APPROVED',
      'PAID',
    ]);
  });

  it('when the sandbox desk declines, then DECLINED with its reason code and nothing to pay', async () => {
    const order = await coveredOrder();
    const { claimRef } = (await fileClaim(client, placing, order.orderRef)).body.data;
    const declined = await decideClaim(client, placing, claimRef, {
      decision: 'DECLINED',
      declineReason: 'PRE_EXISTING_CONDITION',
    });
    expectStatus(declined, 200);
    expect(declined.body.data.decision).toMatchObject({ approvedTotal: 0, declineReason: 'PRE_EXISTING_CONDITION' });
    const other = await decideClaim(
      client,
      placing,
      (await fileClaim(client, placing, order.orderRef)).body.data.claimRef,
      {
        decision: 'DECLINED',
        declineReason: 'OTHER',
      },
    );
    expectStatus(other, 409);
  });
});

describe('the claims desk (ops claim)', () => {
  it('approves per item at the rate it records, within the line less what earlier claims on it were approved', async () => {
    const order = await coveredOrder();
    // TRIP_CANCELLATION line of the package: 100,000 NPR; excess 5,000.
    const first = (
      await fileClaim(
        client,
        placing,
        order.orderRef,
        claimRequest({
          claimType: 'TRIP_CANCELLATION',
          items: [
            {
              description: 'Flights',
              amount: 80000,
              currency: 'NPR',
              invoiceNumber: `F-${randomUUID()}`,
              providerName: 'Buddha Air',
            },
          ],
        }),
      )
    ).body.data;
    await deskMove(server.orm.em, first.claimRef, { step: 'ASSESS' }, 'operator-cli:test');
    await expect(
      deskMove(
        server.orm.em,
        first.claimRef,
        { step: 'PAY', payout: { method: 'KHALTI', reference: 'K-1', paidOn: kathmanduToday() } },
        'operator-cli:test',
      ),
    ).rejects.toThrow(OperatorRefusal);
    const approved = await deskMove(
      server.orm.em,
      first.claimRef,
      { step: 'APPROVE', figures: new Map() },
      'operator-cli:test',
    );
    // 80,000 - 5,000 excess = 75,000.
    expect(approved.view.claim.approvedTotal).toBe(7_500_000);
    const second = (
      await fileClaim(
        client,
        placing,
        order.orderRef,
        claimRequest({
          claimType: 'TRIP_INTERRUPTION',
          items: [
            {
              description: 'Hotel',
              amount: 300,
              currency: 'USD',
              invoiceNumber: `H-${randomUUID()}`,
              providerName: 'Yak Hotel',
            },
          ],
        }),
      )
    ).body.data;
    await deskMove(server.orm.em, second.claimRef, { step: 'ASSESS' }, 'operator-cli:test');
    await expect(
      deskMove(server.orm.em, second.claimRef, { step: 'APPROVE', figures: new Map() }, 'operator-cli:test'),
    ).rejects.toThrow(/exchange rate/);
    // USD 300 at 133.45 = 40,035 - 5,000 = 35,035; the line has 100,000 - 75,000 = 25,000 left.
    const capped = await deskMove(
      server.orm.em,
      second.claimRef,
      { step: 'APPROVE', figures: new Map([[1, { exchangeRate: '133.45', rateDate: kathmanduToday() }]]) },
      'operator-cli:test',
    );
    expect(capped.view.claim.status).toBe('PARTIALLY_APPROVED');
    expect(capped.view.claim.approvedTotal).toBe(2_500_000);
    const read = await readClaim(client, placing, second.claimRef);
    expectStatus(read, 200);
    expect(read.body.data.items[0].decision).toMatchObject({ exchangeRate: '133.4500', approvedNpr: 40035 });
    const paid = await deskMove(
      server.orm.em,
      second.claimRef,
      { step: 'PAY', payout: { method: 'KHALTI', reference: 'KHT-1', paidOn: kathmanduToday() } },
      'operator-cli:test',
    );
    expect(paid.view.payout?.amount).toBe(2_500_000);
    const closed = await deskMove(server.orm.em, second.claimRef, { step: 'CLOSE' }, 'operator-cli:test');
    expect(closed.view.claim.status).toBe('CLOSED');
  });
});
