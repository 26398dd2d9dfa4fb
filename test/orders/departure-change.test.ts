import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { Order } from '../../src/modules/orders/entities/order';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { setEndpoint } from '../../src/modules/webhooks/endpoints';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { readPdf } from '../support/certificate-pdf';
import { expectContract, expectSchema } from '../support/contract';
import { first } from '../support/elements';
import { sample } from '../support/metrics-sample';
import type { ApiResponse, WireJson } from '../support/http-client';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeGroup, placeOrder, RETURN_URL, type PlacedOrder } from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectStatus } from '../support/expect-status';
import { readablePage } from '../support/certificate-fixtures';

/** Decision record 0060: PATCH /orders/{orderRef} with exactly {"departureDate"}. */
// Background jobs on: order.amended reaches the partner's endpoint through the webhook relay and delivery workers.
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' }, backgroundJobs: true });
let agency: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Trails Pvt. Ltd.' });
  listed = await newPartner(server, client, { name: 'Khumbu Guides', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Langtang Treks' });
});

const orderPath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}`;
const later = addDays(departure, 7);

function moveDeparture(partner: TestPartner, identifier: string, body: unknown): Promise<ApiResponse> {
  return client.op('updateOrder', 'PATCH', orderPath(identifier), body, { token: partner.token });
}

async function detail(partner: TestPartner, identifier: string): Promise<WireJson> {
  return (await client.op('getOrder', 'GET', orderPath(identifier), undefined, { token: partner.token })).body.data;
}

/** What a date change would write: the order's row as stored, its audit entries and its events. */
async function writtenFor(order: PlacedOrder) {
  const em = server.orm.em.fork();
  const row = await em.findOneOrFail(Order, order.orderId);
  return {
    dates: [row.departureDate, row.coverageStartDate, row.coverageEndDate, row.durationDays],
    totalAmount: row.totalAmount,
    amendedAt: row.amendedAt ?? null,
    version: row.version,
    audit: (await auditEntriesOf(em, order.orderId)).length,
    events: await em.count(WebhookEvent, { type: 'order.amended', payload: { data: { orderId: order.orderId } } }),
  };
}

/** A paid CASH order (the operator recorded its cash): a policy number, a certificate. */
async function paidOrder(partner: TestPartner, extra: Record<string, unknown> = {}): Promise<PlacedOrder> {
  const order = await placeOrder(server, client, partner, { settlementType: 'CASH', ...extra });
  await recordCashPayment(
    server.orm.em.fork(),
    order.orderRef,
    { amount: Math.round(order.totalAmount * 100) },
    'operator-cli:test',
  );
  return order;
}

describe('PATCH /orders/{orderRef}', () => {
  it('when the placing company sends a later departureDate, then the cover window moves with it, keeps its length and the price does not change', async () => {
    const order = await placeOrder(server, client, agency);
    const before = await detail(agency, order.orderRef);

    const response = await moveDeparture(agency, order.orderRef, { departureDate: later });

    expectStatus(response, 200);
    const moved = response.body.data;
    expect(moved).toMatchObject({
      departureDate: later,
      coverageStartDate: later,
      coverageEndDate: addDays(later, before.durationDays - 1),
      durationDays: before.durationDays,
    });
    expect(moved.pricing).toEqual(before.pricing);
    expect(moved.amendedAt).toEqual(expect.any(String));
    expect(before.amendedAt).toBeNull();
    expect(withoutDates(moved)).toEqual(withoutDates(before));
    expect(await detail(agency, order.orderRef)).toEqual(moved);
  });

  it('when the new date is earlier, then the window moves earlier by as many days', async () => {
    const order = await placeOrder(server, client, agency);
    const earlier = addDays(departure, -20);
    const response = await moveDeparture(agency, order.orderRef, { departureDate: earlier });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      departureDate: earlier,
      coverageStartDate: earlier,
      coverageEndDate: addDays(earlier, 6),
      durationDays: 7,
    });
  });

  it('takes every order identifier form: order reference, order number, order UUID and a payment reference', async () => {
    const order = await placeOrder(server, client, agency);
    const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    const forms = [
      order.orderRef,
      order.orderNumber,
      order.orderId.toUpperCase(),
      started.body.data.paymentRef as string,
    ];
    for (const [index, identifier] of forms.entries()) {
      const date = addDays(departure, index + 1);
      const response = await moveDeparture(agency, identifier, { departureDate: date });
      expect({
        identifier,
        status: response.status,
        orderRef: response.body.data?.orderRef,
        departureDate: response.body.data?.departureDate,
      }).toEqual({ identifier, status: 200, orderRef: order.orderRef, departureDate: date });
    }
  });

  it("when the date is the order's current one, then it answers 200 with the order unchanged: no amendment, no audit entry, no webhook", async () => {
    const order = await placeOrder(server, client, agency);
    const before = await writtenFor(order);
    const response = await moveDeparture(agency, order.orderRef, { departureDate: departure });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ departureDate: departure, amendedAt: null });
    expect(await writtenFor(order)).toEqual(before);
  });

  it('when a change is retried after it succeeded, then the retry answers 200 with the same dates and records nothing twice', async () => {
    const order = await placeOrder(server, client, agency);
    const change = await moveDeparture(agency, order.orderRef, { departureDate: later });
    const afterFirst = await writtenFor(order);
    const retry = await moveDeparture(agency, order.orderRef, { departureDate: later });
    expectStatus(retry, 200);
    expect(retry.body.data).toEqual(change.body.data);
    expect(await writtenFor(order)).toEqual(afterFirst);
    expect(afterFirst).toMatchObject({ audit: 1, events: 1 });
  });

  it("when the order is one of a group, then it moves alone and the group's other orders keep their dates", async () => {
    const group = await placeGroup(server, client, agency, 2);
    const [moving, staying] = group.orders as [PlacedOrder, PlacedOrder];
    const response = await moveDeparture(agency, moving.orderRef, { departureDate: later });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ groupRef: group.groupRef, departureDate: later });
    expect(await detail(agency, staying.orderRef)).toMatchObject({
      groupRef: group.groupRef,
      departureDate: departure,
      amendedAt: null,
    });
  });

  it('when the change succeeds, then one audit entry keeps both windows and who made the change', async () => {
    const order = await placeOrder(server, client, agency);
    await moveDeparture(agency, order.orderRef, { departureDate: later });
    const entries = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(entries).toHaveLength(1);
    expect(first(entries, 'the audit entries')).toMatchObject({
      action: 'DEPARTURE_CHANGED',
      actor: `partner-api:${agency.companyId}`,
      orderRef: order.orderRef,
      details: {
        previous: { departureDate: departure, coverageStartDate: departure, coverageEndDate: addDays(departure, 6) },
        current: { departureDate: later, coverageStartDate: later, coverageEndDate: addDays(later, 6) },
        orderStatus: 'PENDING',
        policyNumber: null,
      },
    });
  });

  it('when two changes of one order race, then they run one after the other: each audit entry starts where the other ended', async () => {
    const order = await placeOrder(server, client, agency);
    const dates = [addDays(departure, 3), addDays(departure, 9)];
    const answers = await Promise.all(
      dates.map((date) => moveDeparture(agency, order.orderRef, { departureDate: date })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const entries = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(entries).toHaveLength(2);
    const [earlier, last] = entries.map(
      (entry) => entry.details as { previous: { departureDate: string }; current: { departureDate: string } },
    ) as [
      { previous: { departureDate: string }; current: { departureDate: string } },
      { previous: { departureDate: string }; current: { departureDate: string } },
    ];
    expect(earlier.previous.departureDate).toBe(departure);
    expect(last.previous.departureDate).toBe(earlier.current.departureDate);
    expect((await detail(agency, order.orderRef)).departureDate).toBe(last.current.departureDate);
  });
});

describe('a date change racing a cancellation', () => {
  it('lands wholly before it (moved, then cancelled) or wholly after it (a 400 naming the cancellation), never in between', async () => {
    const order = await placeOrder(server, client, agency);
    const [moved] = await Promise.all([
      moveDeparture(agency, order.orderRef, { departureDate: later }),
      cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'operator-cli:race', server.payments),
    ]);
    const entries = (await auditEntriesOf(server.orm.em.fork(), order.orderId)).map((entry) => entry.action);
    const stored = await server.orm.em.fork().findOneOrFail(Order, order.orderId);
    expect(stored.status).toBe('CANCELLED');
    if (moved.status === 200) {
      expect(entries).toEqual(['DEPARTURE_CHANGED', 'ORDER_CANCELLED']);
      expect(stored.departureDate).toBe(later);
    } else {
      expect({ status: moved.status, message: moved.body.message }).toEqual({
        status: 400,
        message: expect.stringMatching(/is CANCELLED/),
      });
      expect(entries).toEqual(['ORDER_CANCELLED']);
      expect(stored.departureDate).toBe(departure);
    }
  });
});

describe('a paid order whose date moves', () => {
  it('keeps its policy number and its price', async () => {
    const order = await paidOrder(agency);
    const before = await detail(agency, order.orderRef);
    expect(before.policyNumber).toMatch(/^SBX-POL-/);
    const response = await moveDeparture(agency, order.orderRef, { departureDate: later });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      status: 'PAID',
      policyNumber: before.policyNumber,
      paidAt: before.paidAt,
      pricing: before.pricing,
      coverageStartDate: later,
    });
  });

  it('has a certificate that shows the new window and says it was amended, with the date of the amendment', async () => {
    const order = await paidOrder(agency);
    const moved = (await moveDeparture(agency, order.orderRef, { departureDate: later })).body.data;

    const response = await fetch(new URL(`${orderPath(order.orderRef)}/certificate`, serverBehind(server.url)), {
      headers: { authorization: `Bearer ${agency.token}` },
    });
    expectStatus(response, 200);
    const pdf = Buffer.from(await response.arrayBuffer());
    await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
    const read = await readPdf(pdf);

    expect(read.text).toContain(moved.policyNumber);
    expect(read.text).toContain(`${later} to ${addDays(later, 6)}`);
    // The coverage window printed is the new one; the first one is named only in the list of versions, as superseded.
    expect(read.text).toContain(`Coverage window ${later} to ${addDays(later, 6)}`);
    expect(read.text).toContain(
      `Version 1, ${kathmanduToday(new Date(moved.paidAt))} Issued; cover ${departure} to ${addDays(departure, 6)} (superseded by version 2)`,
    );
    expect(read.text).toContain(
      `Version 2, ${kathmanduToday(new Date(moved.amendedAt))} Departure moved from ${departure} to ${later}; cover ${later} to ${addDays(later, 6)} (this certificate)`,
    );
    // The original issue date stays: the cover was bought then.
    expect(read.text).toContain(
      `Issued ${kathmanduToday(new Date(moved.paidAt))} · Version 2, amended ${kathmanduToday(new Date(moved.amendedAt))}: departure moved from ${departure} to ${later}`,
    );
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${moved.policyNumber}-v2.pdf"`);
    expect(read.title).toBe(`SPECIMEN — NOT INSURANCE: specimen certificate ${moved.policyNumber}, version 2`);
  });

  it('has a certificate whose version counts every change after payment', async () => {
    const order = await paidOrder(agency);
    await moveDeparture(agency, order.orderRef, { departureDate: later });
    const moved = (await moveDeparture(agency, order.orderRef, { departureDate: addDays(later, 1) })).body.data;
    const response = await fetch(new URL(`${orderPath(order.orderRef)}/certificate`, serverBehind(server.url)), {
      headers: { authorization: `Bearer ${agency.token}` },
    });
    expectStatus(response, 200);
    const read = await readPdf(Buffer.from(await response.arrayBuffer()));
    expect(read.text).toContain(
      `Version 3, amended ${kathmanduToday(new Date(moved.amendedAt))}: departure moved from ${later} to ${addDays(later, 1)}`,
    );
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${moved.policyNumber}-v3.pdf"`);
  });

  it('has a verify page that shows the new window', async () => {
    const order = await paidOrder(agency);
    const moved = (await moveDeparture(agency, order.orderRef, { departureDate: later })).body.data;
    const page = await client.op(
      'verifyPolicy',
      'GET',
      `/verify/${encodeURIComponent(moved.policyNumber)}`,
      undefined,
      { direct: true },
    );
    expectStatus(page, 200);
    const text = readablePage(page.body);
    expect(text).toContain(`${later} to ${addDays(later, 6)}`);
    expect(text).toContain(`from ${later}`);
    expect(text).not.toContain(departure);
    expect(text).toContain('Certificate version 2 is the current one. Version 1 is superseded');
    expect(text).toContain(
      `Amended on ${kathmanduToday(new Date(moved.amendedAt))}: the cover dates were changed after the policy was issued.`,
    );
  });

  it("prints a check code of version 2's own, in its QR link too: the verify page takes it as current and version 1's code as superseded", async () => {
    const order = await paidOrder(agency);
    const moved = (await moveDeparture(agency, order.orderRef, { departureDate: later })).body.data;
    const { verificationCode } = await server.orm.em.fork().findOneOrFail(Order, { orderRef: order.orderRef });
    const response = await fetch(new URL(`${orderPath(order.orderRef)}/certificate`, serverBehind(server.url)), {
      headers: { authorization: `Bearer ${agency.token}` },
    });
    expectStatus(response, 200);
    const read = await readPdf(Buffer.from(await response.arrayBuffer()));
    const printed = /Check code ([2-9A-HJKMNP-Z]{6})/.exec(read.text)?.[1];
    if (!printed || !verificationCode) throw new Error(`no check code printed: ${read.text}`);
    expect(printed).not.toBe(verificationCode);
    expect(first(read.pages, 'the pages').links.some((link) => link.endsWith(`?code=${printed}`))).toBe(true);

    const verify = (code: string) =>
      client.op('verifyPolicy', 'GET', `/verify/${encodeURIComponent(moved.policyNumber)}`, undefined, {
        direct: true,
        query: { code },
      });
    const current = readablePage((await verify(printed)).body);
    expect(current).toContain('Certificate version 2 is the current one.');
    expect(current).not.toContain('The check code typed is that of');
    expect(current).not.toContain('does not match');
    const earlier = await verify(verificationCode.toLowerCase());
    expectStatus(earlier, 200);
    expect(readablePage(earlier.body)).toContain(
      'The check code typed is that of certificate version 1, which is superseded by version 2',
    );
    expect(readablePage((await verify('ZZZZZZ')).body)).toContain('This check code does not match this policy.');
  });

  it("sends order.amended through the outbox to the partner's endpoint, with the previous and the new dates and the policy number", async () => {
    const receiver = new WebhookReceiver();
    const partner = await newPartner(server, client);
    const endpoint = await setEndpoint(server.orm.em.fork(), partner.companyId, await receiver.start(), {
      allowLocalEndpoints: true,
    });
    receiver.secret = endpoint.secret ?? '';
    try {
      const order = await paidOrder(partner);
      const moved = (await moveDeparture(partner, order.orderRef, { departureDate: later })).body.data;

      await receiver.waitFor(() => receiver.unique('order.amended').length === 1);
      const event = first(receiver.unique('order.amended'), 'the order.amended events');
      expectSchema('OrderAmendedEvent', event);
      expect(event.data).toEqual({
        orderId: order.orderId,
        orderRef: order.orderRef,
        orderNumber: order.orderNumber,
        orderStatus: 'PAID',
        groupRef: null,
        policyNumber: moved.policyNumber,
        amendedAt: moved.amendedAt,
        departureDate: later,
        coverageStartDate: later,
        coverageEndDate: addDays(later, 6),
        previous: { departureDate: departure, coverageStartDate: departure, coverageEndDate: addDays(departure, 6) },
      });
    } finally {
      await receiver.stop();
    }
  });
});

describe('a date change that is refused', () => {
  /** A 400 in error shape 2, with the one field error when `field` is given; the order untouched. */
  async function expectRefused(
    order: PlacedOrder,
    body: unknown,
    expected: { field?: string; message: RegExp },
    options: { raw?: string; contentType?: string } = {},
  ) {
    const before = await writtenFor(order);
    const response = await client.op(
      'updateOrder',
      'PATCH',
      orderPath(order.orderRef),
      options.raw === undefined ? body : undefined,
      {
        token: agency.token,
        raw: options.raw,
        headers: options.contentType ? { 'content-type': options.contentType } : {},
      },
    );
    expectStatus(response, 400);
    expect(response.body).toMatchObject({ status: 400, error: 'Bad Request', path: orderPath(order.orderRef) });
    if (expected.field) expect(response.body.details.fieldErrors[expected.field]).toMatch(expected.message);
    else expect(response.body.message).toMatch(expected.message);
    expect(await writtenFor(order)).toEqual(before);
    return response;
  }

  it('when the body carries any field other than departureDate, then 400 names that field', async () => {
    const order = await placeOrder(server, client, agency);
    await expectRefused(
      order,
      { departureDate: later, routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18' },
      { field: 'routeId', message: /not an accepted field/ },
    );
    await expectRefused(
      order,
      { departureDate: later, coverageEndDate: addDays(later, 30) },
      { field: 'coverageEndDate', message: /not an accepted field/ },
    );
  });

  it('when departureDate is missing or not a date, then 400 with a field error on departureDate', async () => {
    const order = await placeOrder(server, client, agency);
    await expectRefused(order, {}, { field: 'departureDate', message: /required/ });
    await expectRefused(order, { departureDate: '2031-02-30' }, { field: 'departureDate', message: /date/ });
    await expectRefused(order, { departureDate: '2100-01-01' }, { field: 'departureDate', message: /2099-12-31/ });
    await expectRefused(order, { departureDate: 20311012 }, { field: 'departureDate', message: /string/ });
  });

  it('when the body is not JSON, or not sent as application/json, then 400 and nothing changes', async () => {
    const order = await placeOrder(server, client, agency);
    await expectRefused(
      order,
      undefined,
      { message: /./ },
      { raw: '{"departureDate":', contentType: 'application/json' },
    );
    await expectRefused(
      order,
      undefined,
      { message: /./ },
      { raw: JSON.stringify({ departureDate: later }), contentType: 'text/plain' },
    );
    await expectRefused(
      order,
      undefined,
      { message: /./ },
      { raw: `departureDate=${later}`, contentType: 'application/x-www-form-urlencoded' },
    );
  });

  it('when the new date is before today (Nepal date), then 400: the bound creation puts on a departure', async () => {
    const order = await placeOrder(server, client, agency);
    await expectRefused(
      order,
      { departureDate: addDays(kathmanduToday(), -1) },
      { field: 'departureDate', message: /must not be before today/ },
    );
  });

  it("when the traveller would leave the package's age band at the new date, then 400 says so", async () => {
    // 75 at the booked departure (the 3,000 m package covers 1 to 75), 76 from a birthday five days later.
    const dateOfBirth = addDays(departure, 5).replace(/^\d{4}/, (year) => String(Number(year) - 76));
    const order = await placeOrder(server, client, agency, { touristId: await newTravellerBorn(dateOfBirth) });
    await expectRefused(
      order,
      { departureDate: later },
      {
        field: 'departureDate',
        message: new RegExp(`would be 76 on ${later}; package TRK-STD-3000 covers ages 1 to 75`),
      },
    );
    expectStatus(await moveDeparture(agency, order.orderRef, { departureDate: addDays(departure, 4) }), 200);
  });

  it('when the cover has started (its first day is today, Nepal date), then 400, paid or not', async () => {
    const today = kathmanduToday();
    const unpaid = await placeOrder(server, client, agency, { departureDate: today });
    await expectRefused(
      unpaid,
      { departureDate: later },
      { message: new RegExp(`cover of order ${unpaid.orderRef} started on ${today}`) },
    );
    const paid = await paidOrder(agency, { departureDate: today });
    await expectRefused(paid, { departureDate: later }, { message: /started on .*can no longer change/ });
  });

  it('when the new date is more than DEPARTURE_CHANGE_MAX_DAYS (365) after the departure first booked, then 400 on departureDate; changes in steps count from the first booking', async () => {
    const order = await placeOrder(server, client, agency);
    const latest = addDays(departure, 365);
    await expectRefused(
      order,
      { departureDate: '2099-10-05' },
      {
        field: 'departureDate',
        message: new RegExp(
          `at most 365 days after the departure the order was booked with \\(${departure}\\): ${latest} at the latest`,
        ),
      },
    );
    await expectRefused(
      order,
      { departureDate: addDays(departure, 366) },
      { field: 'departureDate', message: /at most 365 days after/ },
    );
    expectStatus(await moveDeparture(agency, order.orderRef, { departureDate: addDays(departure, 200) }), 200);
    // A second step is measured from the first booking too, not from the date the first step reached.
    await expectRefused(
      order,
      { departureDate: addDays(departure, 400) },
      { field: 'departureDate', message: new RegExp(`booked with \\(${departure}\\)`) },
    );
    expectStatus(await moveDeparture(agency, order.orderRef, { departureDate: latest }), 200);
  });

  it('when the operator has cancelled the order, then 400 says it is cancelled', async () => {
    const order = await placeOrder(server, client, agency);
    await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'operator-cli:test', server.payments);
    await expectRefused(
      order,
      { departureDate: later },
      { message: /is CANCELLED; a cancelled order's dates cannot change/ },
    );
  });
});

describe('the date changes metric', () => {
  const count = async (outcome: string) => {
    const metrics = await client.op<string>('getMetrics', 'GET', '/metrics');
    return sample(metrics.body, 'order_departure_changes_total', { operation: 'updateOrder', outcome }) ?? 0;
  };

  it('counts accepted and rejected date changes', async () => {
    const order = await placeOrder(server, client, agency);
    const [accepted, rejected] = [await count('accepted'), await count('rejected')];
    await moveDeparture(agency, order.orderRef, { departureDate: later });
    await moveDeparture(agency, order.orderRef, { departureDate: addDays(kathmanduToday(), -1) });
    expect([await count('accepted'), await count('rejected')]).toEqual([accepted + 1, rejected + 1]);
  });
});

describe('who may move an order', () => {
  it('a listed agency gets 403, a stranger 403, an unknown order 404; nothing changes', async () => {
    const order = await placeOrder(server, client, agency, { travelCompanyIds: [listed.companyId] });
    const before = await writtenFor(order);
    expectStatus(await moveDeparture(listed, order.orderRef, { departureDate: later }), 403);
    expect((await detail(listed, order.orderRef)).departureDate).toBe(departure);
    expectStatus(await moveDeparture(stranger, order.orderRef, { departureDate: later }), 403);
    expectStatus(await moveDeparture(stranger, order.orderId, { departureDate: later }), 403);
    expectStatus(await moveDeparture(agency, 'ORD-2030-999999', { departureDate: later }), 404);
    expect(await writtenFor(order)).toEqual(before);
  });

  it('without a token, 401', async () => {
    const order = await placeOrder(server, client, agency);
    const response = await client.op('updateOrder', 'PATCH', orderPath(order.orderRef), { departureDate: later });
    expectStatus(response, 401);
  });
});

function newTravellerBorn(dateOfBirth: string): Promise<string> {
  return newTraveller(server, agency.companyId, { dateOfBirth });
}

/** An order detail without what a date change changes. */
function withoutDates(order: WireJson): WireJson {
  const copy = { ...order };
  for (const key of ['departureDate', 'coverageStartDate', 'coverageEndDate', 'amendedAt', 'updatedAt'])
    delete copy[key];
  return copy;
}
