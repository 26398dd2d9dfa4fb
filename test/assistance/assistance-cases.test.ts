import { randomUUID } from 'node:crypto';
import { AssistanceCase } from '../../src/modules/assistance/entities/assistance-case';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { AssistanceCaseEntry } from '../../src/modules/assistance/entities/assistance-case-entry';
import { AssistanceCaseDocument } from '../../src/modules/assistance/entities/assistance-case-document';
import { Document, DocumentType } from '../../src/modules/documents/entities/document';
import { Order } from '../../src/modules/orders/entities/order';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { FILES, uploadedDocumentId } from '../support/documents';
import { expectContract } from '../support/contract';
import { readPdf } from '../support/certificate-pdf';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { openCase as openCaseNow, type CaseOpening } from '../../src/modules/assistance/case-opening';
import type { Principal } from '../../src/kernel/http/request-scope';
import { CompanyType } from '../../src/modules/partners/entities/company';
import {
  caseRequest,
  listCases,
  openCase,
  paidOrder,
  readCase,
  updateCase,
  withdrawCase,
} from '../support/assistance-fixtures';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let placing: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Khumbu Case Treks Pvt. Ltd.' });
  listed = await newPartner(server, client, { name: 'Listed Rescue Agency' });
  stranger = await newPartner(server, client, { name: 'Stranger Case Treks' });
});

/** Moves the order's cover window so that today (Nepal) is inside it. */
async function coverStartedToday(orderId: string) {
  const today = kathmanduToday();
  await server.orm.em
    .fork()
    .nativeUpdate(Order, { id: orderId }, { coverageStartDate: today, coverageEndDate: addDays(today, 6) });
}

describe('POST /orders/{orderRef}/assistance-cases', () => {
  it('when the placing company reports an emergency on a paid order, then the case is RECEIVED with its AST reference, the desk phone and the instruction to call now', async () => {
    const order = await paidOrder(server, client, placing);
    await coverStartedToday(order.orderId);
    const answer = await openCase(client, placing, order.orderRef);
    expectStatus(answer, 201);
    const data = answer.body.data;
    expect(data).toMatchObject({
      orderRef: order.orderRef,
      status: 'RECEIVED',
      coverageNotes: [],
      guarantee: null,
      altitudeMeters: 2900,
      policyNumber: expect.stringMatching(/^SBX-POL-/),
    });
    expect(data.caseRef).toMatch(new RegExp(`^AST-${kathmanduToday().slice(0, 4)}-\\d{6,}$`));
    expect(data.desk.phone).toBe('+977 1 4000 000');
    expect(data.desk.instruction).toContain(
      `Call the assistance desk now on +977 1 4000 000 and quote ${data.caseRef}`,
    );
    expect(data.timeline).toEqual([
      expect.objectContaining({ kind: 'OPENED', by: 'PARTNER', status: 'RECEIVED', previousStatus: null }),
    ]);
  });

  it('when a registered agency listed on the order reports it, then it may open the case (its one write on the order)', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const answer = await openCase(client, listed, order.orderRef);
    expectStatus(answer, 201);
    expectStatus(await readCase(client, placing, answer.body.data.caseRef), 200);
  });

  it('when a company neither placed the order nor is listed on it, then it is a 403 and nothing is written', async () => {
    const order = await paidOrder(server, client, placing);
    expectStatus(await openCase(client, stranger, order.orderRef), 403);
    expect(await server.orm.em.fork().count(AssistanceCase, { order: order.orderId })).toBe(0);
  });

  it('when the altitude is above the package and the day outside the cover, then the case is still opened, with both coverage notes', async () => {
    const order = await paidOrder(server, client, placing);
    const answer = await openCase(client, placing, order.orderRef, caseRequest({ altitudeMeters: 5164 }));
    expectStatus(answer, 201);
    expect(answer.body.data.coverageNotes).toEqual(['ALTITUDE_ABOVE_COVER', 'OUTSIDE_COVER_WINDOW']);
  });

  it('when the order is not paid, then it is a 400 telling the caller to call the desk, and nothing is written', async () => {
    const order = await placeOrder(server, client, placing);
    const answer = await openCase(client, placing, order.orderRef);
    expectStatus(answer, 400);
    expect(answer.body.message).toContain('PENDING');
    expect(await server.orm.em.fork().count(AssistanceCase, { order: order.orderId })).toBe(0);
  });

  it('when the order is cancelled, then it is a 400', async () => {
    const order = await paidOrder(server, client, placing);
    await server.orm.em.fork().nativeUpdate(Order, { id: order.orderId }, { status: 'CANCELLED' as Order['status'] });
    const answer = await openCase(client, placing, order.orderRef);
    expectStatus(answer, 400);
    expect(answer.body.message).toContain('CANCELLED');
  });

  it('when the traveller already has an open case, then a second one is a 409 naming the open caseRef', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const first = (await openCase(client, placing, order.orderRef)).body.data;
    const second = await openCase(client, listed, order.orderRef);
    expectStatus(second, 409);
    expect(second.body.message).toContain(first.caseRef);
  });

  it('when the same Idempotency-Key and body come again, then the same case is answered; another body under it is a 409', async () => {
    const order = await paidOrder(server, client, placing);
    const key = randomUUID();
    const first = await openCase(client, placing, order.orderRef, caseRequest(), key);
    const again = await openCase(client, placing, order.orderRef, caseRequest(), key);
    expectStatus(again, 201);
    expect(again.body.data.caseRef).toBe(first.body.data.caseRef);
    expect([first.headers.get('idempotency-replayed'), again.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    const other = await openCase(client, placing, order.orderRef, caseRequest({ summary: 'Something else' }), key);
    expectStatus(other, 409);
    expect(other.body.message).toContain('Idempotency-Key');
  });

  it('when 6 opens with one Idempotency-Key and body race, then one case is written and all 6 answer it', async () => {
    const order = await paidOrder(server, client, placing);
    const key = randomUUID();
    const body = caseRequest() as CaseOpening;
    const caller: Principal = {
      companyId: placing.companyId,
      companyType: CompanyType.TravelAgency,
      companyName: placing.companyName,
      commissionPercent: '10.00',
      credentialId: randomUUID(),
    };
    // Past HTTP, so that all six read before any writes: the later ones meet the first at the (company, key) index.
    const opened = await Promise.all(
      Array.from({ length: 6 }, () => openCaseNow(server.orm.em, caller, order.orderRef, body, key)),
    );
    const cases = await server.orm.em.fork().find(AssistanceCase, { order: order.orderId });
    expect(cases).toHaveLength(1);
    expect(opened.map((view) => view.assistanceCase.caseRef)).toEqual(Array(6).fill(cases[0]?.caseRef));
    expect(opened.filter((view) => view.replayed)).toHaveLength(5);
  });

  it('when the Idempotency-Key is missing, then it is a 400', async () => {
    const order = await paidOrder(server, client, placing);
    const answer = await client.op(
      'openAssistanceCase',
      'POST',
      `/api/external/v1/orders/${order.orderRef}/assistance-cases`,
      caseRequest(),
      { token: placing.token },
    );
    expectStatus(answer, 400);
  });

  it.each([
    ['an altitude above Everest', { altitudeMeters: 8850 }, 'altitudeMeters'],
    ['a latitude outside Nepal', { location: { latitude: 35, longitude: 86.9 } }, 'location.latitude'],
    ['a latitude without a longitude', { location: { latitude: 27.9 } }, 'location'],
    ['an unknown category', { category: 'BORED' }, 'category'],
    ['a reporter without a phone', { reporter: { name: 'Pemba Sherpa', role: 'GUIDE' } }, 'reporter.phone'],
  ])(
    'when the body has %s, then it is a 400 with a field error and nothing is written',
    async (_what, override, field) => {
      const order = await paidOrder(server, client, placing);
      const answer = await openCase(client, placing, order.orderRef, caseRequest(override));
      expectStatus(answer, 400);
      expect(Object.keys(answer.body.details.fieldErrors).join(' ')).toContain(field);
      expect(await server.orm.em.fork().count(AssistanceCase, { order: order.orderId })).toBe(0);
    },
  );

  it('when MEDICAL_REPORT documents are sent, then they are attached to the case; a document of another type is a 400', async () => {
    const order = await paidOrder(server, client, placing);
    const report = await uploadedDocumentId(client, placing.token, 'MEDICAL_REPORT', FILES.pdf);
    const passport = await uploadedDocumentId(client, placing.token, 'PASSPORT', FILES.jpeg);
    const refused = await openCase(client, placing, order.orderRef, caseRequest({ documentIds: [report, passport] }));
    expectStatus(refused, 400);
    expect(refused.body.details.fieldErrors['documentIds[1]']).toContain('MEDICAL_REPORT');
    const opened = await openCase(client, placing, order.orderRef, caseRequest({ documentIds: [report] }));
    expectStatus(opened, 201);
    expect(opened.body.data.documentIds).toEqual([report]);
  });

  it('when a case is opened, then one assistance_case.opened is recorded for each company that may read it, and an audit entry', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, listed, order.orderRef)).body.data;
    const events = await server.orm.em
      .fork()
      .find(WebhookEvent, { type: 'assistance_case.opened', payload: { data: { caseRef } } });
    expect(events.map((event) => event.companyId).sort()).toEqual([placing.companyId, listed.companyId].sort());
    const audit = await server.orm.em
      .fork()
      .find(AuditEntry, { order: order.orderId, action: 'ASSISTANCE_CASE_OPENED' });
    expect(audit).toEqual([
      expect.objectContaining({ actor: `api:${listed.companyId}`, details: expect.objectContaining({ caseRef }) }),
    ]);
  });
});

describe('GET /assistance-cases and GET /assistance-cases/{caseRef}', () => {
  it('when a stranger reads a case, then it is a 404, as for a case that does not exist', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    expectStatus(await readCase(client, stranger, caseRef), 404);
    expectStatus(await readCase(client, placing, 'AST-2030-999999'), 404);
  });

  it('lists the cases the caller may read, newest first, filtered by status, order and opening time', async () => {
    const reader = await newPartner(server, client);
    const first = await paidOrder(server, client, reader);
    const second = await paidOrder(server, client, reader);
    const a = (await openCase(client, reader, first.orderRef)).body.data.caseRef;
    const b = (await openCase(client, reader, second.orderRef)).body.data.caseRef;
    await withdrawCase(client, reader, a);
    const all = await listCases(client, reader);
    expectStatus(all, 200);
    expect(all.body.data.content.map((item: { caseRef: string }) => item.caseRef)).toEqual([b, a]);
    expect(all.body.data).toMatchObject({ totalElements: 2, page: 0, first: true, last: true });
    expect(
      (await listCases(client, reader, '?status=WITHDRAWN')).body.data.content.map(
        (item: { caseRef: string }) => item.caseRef,
      ),
    ).toEqual([a]);
    expect(
      (await listCases(client, reader, `?orderRef=${second.orderRef}`)).body.data.content.map(
        (item: { caseRef: string }) => item.caseRef,
      ),
    ).toEqual([b]);
    expect(
      (
        await listCases(
          client,
          reader,
          `?openedFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        )
      ).body.data.totalElements,
    ).toBe(0);
    expect((await listCases(client, stranger, `?orderRef=${second.orderRef}`)).body.data.totalElements).toBe(0);
  });

  it('sorts by openedAt or status either way (the id breaks ties); any other sortBy is a 400', async () => {
    const reader = await newPartner(server, client);
    const a = (await openCase(client, reader, (await paidOrder(server, client, reader)).orderRef)).body.data.caseRef;
    const b = (await openCase(client, reader, (await paidOrder(server, client, reader)).orderRef)).body.data.caseRef;
    await withdrawCase(client, reader, a);
    const refs = async (query: string) =>
      (await listCases(client, reader, query)).body.data.content.map((item: { caseRef: string }) => item.caseRef);
    expect(await refs('?sortBy=openedAt&sortDir=asc')).toEqual([a, b]);
    // RECEIVED before WITHDRAWN.
    expect(await refs('?sortBy=status&sortDir=asc')).toEqual([b, a]);
    expect(await refs('?sortBy=status&sortDir=desc')).toEqual([a, b]);
    const unknown = await listCases(client, reader, '?sortBy=caseRef');
    expectStatus(unknown, 400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { sortBy: expect.any(String) } },
    });
  });

  it('when the status filter is not a status, then it is a 400', async () => {
    expectStatus(await listCases(client, placing, '?status=LOST'), 400);
  });
});

describe('POST /assistance-cases/{caseRef}/updates', () => {
  it('when the agency sends a new altitude and location, then the case keeps the latest and the timeline each update', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, listed, order.orderRef)).body.data;
    const update = {
      note: 'Descended to Lobuche; SpO2 71 %.',
      altitudeMeters: 4940,
      location: { placeName: 'Lobuche' },
    };
    const answer = await updateCase(client, listed, caseRef, update);
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({ altitudeMeters: 4940, location: { placeName: 'Lobuche' } });
    expect(answer.body.data.timeline[1]).toMatchObject({
      kind: 'PARTNER_UPDATE',
      by: 'PARTNER',
      note: update.note,
      changes: { altitudeMeters: 4940, location: { placeName: 'Lobuche' } },
    });
  });

  it('when the case is no longer open, or the body is empty, then it is a 400', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    expectStatus(await updateCase(client, placing, caseRef, {}), 400);
    await withdrawCase(client, placing, caseRef);
    const late = await updateCase(client, placing, caseRef, { note: 'still here' });
    expectStatus(late, 400);
    expect(late.body.message).toContain('WITHDRAWN');
  });

  it('when a stranger sends an update, then it is a 404 and the case is unchanged', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    expectStatus(await updateCase(client, stranger, caseRef, { altitudeMeters: 10 }), 404);
    expect((await readCase(client, placing, caseRef)).body.data.altitudeMeters).toBe(2900);
  });

  it('when the listed agency sends an update to a case the placing company opened, then it is a 403 and the case is unchanged; the agency still reads it', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    const refused = await updateCase(client, listed, caseRef, { altitudeMeters: 10, note: 'not ours to say' });
    expectStatus(refused, 403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    const read = await readCase(client, listed, caseRef);
    expectStatus(read, 200);
    expect(read.body.data.altitudeMeters).toBe(2900);
    expect(read.body.data.timeline).toHaveLength(1);
  });

  it('when the placing company sends an update to a case the listed agency opened, then it is a 403 and the case is unchanged', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, listed, order.orderRef)).body.data;
    expectStatus(await updateCase(client, placing, caseRef, { altitudeMeters: 10 }), 403);
    expect((await readCase(client, placing, caseRef)).body.data.altitudeMeters).toBe(2900);
  });
});

describe('what one case holds', () => {
  it('when a case has taken its 200 updates, then the next is a 400 telling the caller to call the desk', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    const em = server.orm.em.fork();
    const assistanceCase = await em.findOneOrFail(AssistanceCase, { caseRef });
    for (let i = 0; i < 199; i++)
      em.create(AssistanceCaseEntry, {
        assistanceCase,
        at: new Date(),
        kind: 'PARTNER_UPDATE',
        by: 'PARTNER',
        actor: 'test',
        status: 'RECEIVED',
        note: `update ${i}`,
        changes: {},
      });
    await em.flush();
    expectStatus(await updateCase(client, placing, caseRef, { note: 'the 200th' }), 200);
    const refused = await updateCase(client, placing, caseRef, { note: 'the 201st' });
    expectStatus(refused, 400);
    expect(refused.body.message).toContain('call the assistance desk');
  });

  it('when a case holds 50 documents, then one more is a 400 with a field error and stays a draft', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    const em = server.orm.em.fork();
    const assistanceCase = await em.findOneOrFail(AssistanceCase, { caseRef });
    for (let i = 0; i < 50; i++) {
      const document = em.create(Document, {
        company: placing.companyId,
        documentType: DocumentType.MedicalReport,
        fileName: `note-${i}.pdf`,
        fileSize: 10,
        contentType: 'application/pdf',
        storageKey: `test/${caseRef}/${i}`,
        sha256: '0'.repeat(64),
        attachedAt: new Date(),
      });
      em.create(AssistanceCaseDocument, { assistanceCase, document });
    }
    await em.flush();
    const report = await uploadedDocumentId(client, placing.token, 'MEDICAL_REPORT', FILES.jpeg);
    const refused = await updateCase(client, placing, caseRef, { documentIds: [report] });
    expectStatus(refused, 400);
    expect(refused.body.details.fieldErrors.documentIds).toContain('at most 50');
    expect((await server.orm.em.fork().findOneOrFail(Document, report)).attachedAt).toBeFalsy();
  });
});

describe('POST /assistance-cases/{caseRef}/withdrawal', () => {
  it('when a RECEIVED case is withdrawn, then it is WITHDRAWN with the reason, one assistance_case.updated is recorded, and the traveller may get a new case', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    const answer = await withdrawCase(client, placing, caseRef, 'False alarm');
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({ status: 'WITHDRAWN', withdrawalReason: 'False alarm' });
    const events = await server.orm.em
      .fork()
      .find(WebhookEvent, { type: 'assistance_case.updated', payload: { data: { caseRef } } });
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ status: 'WITHDRAWN', previousStatus: 'RECEIVED', note: 'False alarm' }),
      }),
    ]);
    expectStatus(await openCase(client, placing, order.orderRef), 201);
  });

  it('when the case is already withdrawn, then a second withdrawal is a 400 naming its status', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    await withdrawCase(client, placing, caseRef);
    const again = await withdrawCase(client, placing, caseRef);
    expectStatus(again, 400);
    expect(again.body.message).toContain('is WITHDRAWN');
  });

  it('when the placing company withdraws a case the listed agency opened, then it is a 403 and the case stays RECEIVED', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, listed, order.orderRef)).body.data;
    const refused = await withdrawCase(client, placing, caseRef);
    expectStatus(refused, 403);
    expect(refused.body.message).toContain('only the company that opened it');
    const read = await readCase(client, placing, caseRef);
    expectStatus(read, 200);
    expect(read.body.data.status).toBe('RECEIVED');
  });

  it('when the listed agency withdraws a case the placing company opened, then it is a 403 and the case stays RECEIVED', async () => {
    const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    expectStatus(await withdrawCase(client, listed, caseRef), 403);
    expect((await readCase(client, listed, caseRef)).body.data.status).toBe('RECEIVED');
  });
});

describe('the assistance line on the verify page and the certificate', () => {
  it('when a policy has an open case, then its public verify page shows how to get help and never mentions the case', async () => {
    const order = await paidOrder(server, client, placing);
    const { caseRef } = (await openCase(client, placing, order.orderRef)).body.data;
    const { policyNumber } = (
      await client.op('getOrder', 'GET', `/api/external/v1/orders/${order.orderRef}`, undefined, {
        token: placing.token,
      })
    ).body.data;
    const page = await client.op<string>('verifyPolicy', 'GET', `/verify/${policyNumber}`, undefined, { direct: true });
    expect(page.body).toContain('Open a case through your agency or call');
    expect(page.body).toContain('+977 1 4000 000');
    expect(page.body).not.toContain(caseRef);
    expect(page.body).not.toMatch(/AST-|ALTITUDE_SICKNESS|Pemba/);
    const unknown = await client.op<string>('verifyPolicy', 'GET', '/verify/POL-2030-999999', undefined, {
      direct: true,
    });
    expect(unknown.body).toContain('Open a case through your agency or call');
  });

  it('prints "open a case through your agency or call" beside the assistance phone on the certificate', async () => {
    const order = await paidOrder(server, client, placing);
    const response = await fetch(`${server.url}/api/external/v1/orders/${order.orderRef}/certificate`, {
      headers: { authorization: `Bearer ${placing.token}` },
    });
    expectStatus(response, 200);
    const pdf = Buffer.from(await response.arrayBuffer());
    await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
    expect((await readPdf(pdf)).text).toContain(
      'Open a case through your agency or call before any helicopter evacuation',
    );
  });
});
