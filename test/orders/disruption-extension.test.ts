import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { declareDisruption, endDisruption } from '../../src/modules/catalogue';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { Order } from '../../src/modules/orders/entities/order';
import { OrderAmendment } from '../../src/modules/orders/entities/order-amendment';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { expectContract, expectSchema } from '../support/contract';
import { expectStatus } from '../support/expect-status';
import type { ApiResponse } from '../support/http-client';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeOrder, RETURN_URL, type PlacedOrder } from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { requireSystemTool } from '../support/system-tools';
import { useTestServer } from '../support/test-server';

/**
 * Weather disruptions (decision record 0102): the operator declares a
 * disruption of an area; a paid cover of a route in the area whose last day falls within it is
 * extended free, by up to its maximum days. client.op checks every body against the spec's
 * schema for its status. The orders: TRK-STD-5500, 14 days from `departure` (its base duration),
 * paid through the sandbox helper; then the partner's test clock stands inside the cover.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
const DISRUPTIONS = '/api/external/v1/disruptions';
// A database of its own: GET /disruptions lists every disruption, and only this file declares them.
const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'disruptions' });
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
let agency: TestPartner;

const lastDay = addDays(departure, 13);
/** Lukla grounded from two days before the covers' last day to two days after; 3 days free at most. */
const WINDOW = { startsOn: addDays(lastDay, -2), endsOn: addDays(lastDay, 2), maxDays: 3 };
let lukla: string;

const declare = async (over: Partial<typeof WINDOW & { area: string }> = {}) =>
  (
    await declareDisruption(
      server.orm.em,
      { area: 'LUKLA', ...WINDOW, note: 'Lukla flights grounded by low cloud', ...over },
      'operator-cli:test',
    )
  ).disruptionId;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Khumbu Weather Treks Pvt. Ltd.' });
  lukla = await declare();
});

afterEach(async () => {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
});

const extend = (orderRef: string, body: Record<string, unknown>, key: string = randomUUID()) =>
  client.op('extendOrder', 'POST', `${ORDERS}/${orderRef}/extension`, body, {
    token: agency.token,
    headers: { 'idempotency-key': key },
  });
const preview = (orderRef: string, body: Record<string, unknown>) =>
  client.op('previewOrderExtension', 'POST', `${ORDERS}/${orderRef}/extension/preview`, body, { token: agency.token });
const listed = (query: Record<string, string> = {}) =>
  client.op('listDisruptions', 'GET', DISRUPTIONS, undefined, { token: agency.token, query });

/** An order on the Everest Base Camp route (area LUKLA), or on `route`, or typed in; paid through the sandbox helper. */
async function paidOrder(route: string | null = ROUTES.everestBaseCamp): Promise<PlacedOrder & { paymentRef: string }> {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
  const order = await placeOrder(
    server,
    client,
    agency,
    route === null
      ? { ctgId: CTGS.standard5500 }
      : { ctgId: CTGS.standard5500, routeId: route, customRouteName: undefined },
  );
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
  const paid = await client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${started.body.data.paymentRef}/outcome`,
    { outcome: 'CAPTURED' },
    { token: agency.token },
  );
  expect(paid.body.data.orderStatus).toBe('PAID');
  // The trek is under way: the day before the cover's last day.
  expectStatus(
    await client.op('setSandboxClock', 'PUT', CLOCK, { today: addDays(lastDay, -1) }, { token: agency.token }),
    200,
  );
  return { ...order, paymentRef: started.body.data.paymentRef };
}

function expectCode(response: ApiResponse, status: number, code: string): void {
  expectStatus(response, status);
  expect(response.body.code).toBe(code);
}

async function writtenFor(order: PlacedOrder) {
  const em = server.orm.em.fork();
  const row = await em.findOneOrFail(Order, order.orderId);
  return {
    end: row.coverageEndDate,
    amendments: await em.count(OrderAmendment, { order: order.orderId }),
    attempts: await em.count(PaymentAttempt, { orders: { order: order.orderId } }),
    audit: (await auditEntriesOf(em, order.orderId)).length,
  };
}

async function pdftotext(pdf: Buffer): Promise<string> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'disruption-certificate-'));
  try {
    const file = path.join(directory, 'certificate.pdf');
    fs.writeFileSync(file, pdf);
    const { stdout } = await promisify(execFile)(requireSystemTool('pdftotext'), ['-enc', 'UTF-8', file, '-']);
    return stdout.replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

describe('routes carry an area', () => {
  it('GET /reference/routes names LUKLA for the Khumbu routes flown through Lukla, and no area for the Annapurna Circuit', async () => {
    const routes = await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, {
      token: agency.token,
      query: { size: '100' },
    });
    expectStatus(routes, 200);
    const areaOf = (id: string) =>
      (routes.body.data.content as Array<{ routeId: string; area: string | null }>).find(
        (route) => route.routeId === id,
      )?.area;
    expect(areaOf(ROUTES.everestBaseCamp)).toBe('LUKLA');
    expect(areaOf(ROUTES.everestSouthCol)).toBe('LUKLA');
    expect(areaOf(ROUTES.annapurnaCircuit)).toBeNull();
  });
});

describe('GET /disruptions', () => {
  it('lists the active disruption with the routes of its area, filters by area and status, and leaves out one that ended long ago', async () => {
    const old = await declare({ startsOn: addDays(kathmanduToday(), -90), endsOn: addDays(kathmanduToday(), -80) });
    const response = await listed();
    expectStatus(response, 200);
    const ids = (response.body.data as Array<{ disruptionId: string }>).map((d) => d.disruptionId);
    expect(ids).toContain(lukla);
    expect(ids).not.toContain(old);
    const disruption = (response.body.data as Array<Record<string, unknown>>).find((d) => d.disruptionId === lukla);
    expect(disruption).toMatchObject({
      area: 'LUKLA',
      status: 'ACTIVE',
      startsOn: WINDOW.startsOn,
      endsOn: WINDOW.endsOn,
      endedOn: null,
      lastDay: WINDOW.endsOn,
      maxDays: 3,
      note: 'Lukla flights grounded by low cloud',
    });
    expect(disruption?.routes).toEqual(
      expect.arrayContaining([{ routeId: ROUTES.everestBaseCamp, name: 'Everest Base Camp Trek' }]),
    );
    expect((await listed({ area: 'lukla', status: 'ACTIVE' })).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ disruptionId: lukla })]),
    );
    expect((await listed({ status: 'ENDED' })).body.data).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ disruptionId: lukla })]),
    );
    expect((await listed({ area: 'JOMSOM' })).body.data).toEqual([]);
  });
});

describe('POST /orders/{orderRef}/extension under a disruption', () => {
  it('when a paid cover of a Lukla route ends within the disruption, then it is extended free at once: APPLIED, nothing due, no payment, order.extended naming the disruption, audited', async () => {
    const order = await paidOrder();
    const before = await writtenFor(order);
    const previewed = await preview(order.orderRef, { extraDays: 3, disruptionId: lukla });
    expectStatus(previewed, 200);
    expect(previewed.body.data).toMatchObject({
      coverageEndDate: addDays(lastDay, 3),
      premiumPaid: order.totalAmount,
      newPremium: order.totalAmount,
      amountDue: 0,
      allowed: true,
      refusal: null,
    });

    const response = await extend(order.orderRef, { extraDays: 3, disruptionId: lukla });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      amendmentRef: `${order.orderRef}-EXT-1`,
      status: 'APPLIED',
      previousCoverageEndDate: lastDay,
      coverageEndDate: addDays(lastDay, 3),
      durationDays: 17,
      amountDue: 0,
      newPremium: order.totalAmount,
      paymentRef: null,
      paymentUrl: null,
      disruptionId: lukla,
    });
    const after = await writtenFor(order);
    expect(after).toEqual({
      end: addDays(lastDay, 3),
      amendments: 1,
      attempts: before.attempts,
      audit: before.audit + 1,
    });
    const em = server.orm.em.fork();
    const audit = (await auditEntriesOf(em, order.orderId)).find((entry) => entry.action === 'COVER_EXTENDED');
    expect(audit?.details).toMatchObject({ disruption: { disruptionId: lukla, area: 'LUKLA' }, amountDue: 0 });
    const events = await em.find(WebhookEvent, {
      type: 'order.extended',
      payload: { data: { orderId: order.orderId } },
    });
    expect(events).toHaveLength(1);
    expectSchema('OrderExtendedEvent', events[0]?.payload);
    expect(events[0]?.payload.data).toMatchObject({ disruptionId: lukla, amountPaid: 0, paymentRef: null });
  });

  it('when the same Idempotency-Key comes again, then it answers the same extension (Idempotency-Replayed); with another body it is a 409', async () => {
    const order = await paidOrder();
    const key = randomUUID();
    const first = await extend(order.orderRef, { extraDays: 2, disruptionId: lukla }, key);
    expectStatus(first, 200);
    const again = await extend(order.orderRef, { extraDays: 2, disruptionId: lukla }, key);
    expectStatus(again, 200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expectCode(await extend(order.orderRef, { extraDays: 1, disruptionId: lukla }, key), 409, 'IDEMPOTENCY_KEY_REUSED');
    expect((await writtenFor(order)).amendments).toBe(1);
  });

  it('when the route is not in the area (another region, or typed in), then it is a 400 ROUTE_NOT_IN_DISRUPTION_AREA and nothing is written', async () => {
    for (const route of [ROUTES.annapurnaCircuit, null]) {
      const order = await paidOrder(route);
      const before = await writtenFor(order);
      expectCode(
        await extend(order.orderRef, { extraDays: 1, disruptionId: lukla }),
        400,
        'ROUTE_NOT_IN_DISRUPTION_AREA',
      );
      expectCode(
        await preview(order.orderRef, { extraDays: 1, disruptionId: lukla }),
        400,
        'ROUTE_NOT_IN_DISRUPTION_AREA',
      );
      expect(await writtenFor(order)).toEqual(before);
    }
  });

  it('when the cover does not end within the disruption, then it is a 400 COVER_NOT_ENDING_IN_DISRUPTION', async () => {
    const later = await declare({ startsOn: addDays(lastDay, 1), endsOn: addDays(lastDay, 4) });
    const order = await paidOrder();
    const before = await writtenFor(order);
    expectCode(
      await extend(order.orderRef, { extraDays: 1, disruptionId: later }),
      400,
      'COVER_NOT_ENDING_IN_DISRUPTION',
    );
    expect(await writtenFor(order)).toEqual(before);
  });

  it('when more days are asked than the disruption gives, at once or over two extensions, then it is a 400 DISRUPTION_DAYS_EXCEEDED', async () => {
    const order = await paidOrder();
    expectCode(await extend(order.orderRef, { extraDays: 4, disruptionId: lukla }), 400, 'DISRUPTION_DAYS_EXCEEDED');
    expectCode(await preview(order.orderRef, { extraDays: 4, disruptionId: lukla }), 400, 'DISRUPTION_DAYS_EXCEEDED');
    expectStatus(await extend(order.orderRef, { extraDays: 2, disruptionId: lukla }), 200);
    // Two more would be 4 days after the last day it had before the disruption: the days are shared.
    expectCode(await extend(order.orderRef, { extraDays: 2, disruptionId: lukla }), 400, 'DISRUPTION_DAYS_EXCEEDED');
    const third = await extend(order.orderRef, { extraDays: 1, disruptionId: lukla });
    expectStatus(third, 200);
    expect(third.body.data.coverageEndDate).toBe(addDays(lastDay, 3));
  });

  it('when the disruption names none, or the order is unpaid, then it is a 400 DISRUPTION_NOT_FOUND or ORDER_NOT_PAID', async () => {
    const order = await paidOrder();
    expectCode(
      await extend(order.orderRef, { extraDays: 1, disruptionId: 'D-2026-9999' }),
      400,
      'DISRUPTION_NOT_FOUND',
    );
    expectCode(
      await preview(order.orderRef, { extraDays: 1, disruptionId: 'D-2026-9999' }),
      400,
      'DISRUPTION_NOT_FOUND',
    );
    await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
    const unpaid = await placeOrder(server, client, agency, {
      ctgId: CTGS.standard5500,
      routeId: ROUTES.everestBaseCamp,
      customRouteName: undefined,
    });
    expectCode(await extend(unpaid.orderRef, { extraDays: 1, disruptionId: lukla }), 400, 'ORDER_NOT_PAID');
  });

  it('when neither a disruption nor a gateway is named, then it is a 400 naming gateway', async () => {
    const order = await paidOrder();
    const response = await extend(order.orderRef, { extraDays: 1 });
    expectCode(response, 400, 'VALIDATION_FAILED');
    expect(response.body.details.fieldErrors).toHaveProperty('gateway');
  });

  it('when the operator ended the disruption, then it is a 409 DISRUPTION_ENDED and the preview answers allowed: false; GET /disruptions shows it ENDED', async () => {
    const soon = await declare();
    const order = await paidOrder();
    await endDisruption(server.orm.em, soon, lastDay, 'operator-cli:test');
    const before = await writtenFor(order);
    expectCode(await extend(order.orderRef, { extraDays: 1, disruptionId: soon }), 409, 'DISRUPTION_ENDED');
    const previewed = await preview(order.orderRef, { extraDays: 1, disruptionId: soon });
    expectStatus(previewed, 200);
    expect(previewed.body.data).toMatchObject({ allowed: false, refusal: { code: 'DISRUPTION_ENDED' }, amountDue: 0 });
    expect(await writtenFor(order)).toEqual(before);
    const shown = (await listed({ status: 'ENDED' })).body.data as Array<Record<string, unknown>>;
    expect(shown.find((d) => d.disruptionId === soon)).toMatchObject({ status: 'ENDED', endedOn: lastDay, lastDay });
  });

  it('when a cover extended free is then extended by a paid top-up, then the free days are not charged', async () => {
    const order = await paidOrder();
    const paidOnly = await preview(order.orderRef, { extraDays: 1 });
    expectStatus(await extend(order.orderRef, { extraDays: 3, disruptionId: lukla }), 200);
    // One day more after three free ones costs what one day more cost before them.
    const afterFree = await preview(order.orderRef, { extraDays: 1 });
    expectStatus(afterFree, 200);
    expect(afterFree.body.data.amountDue).toBeGreaterThan(0);
    expect(afterFree.body.data.amountDue).toBe(paidOnly.body.data.amountDue);
  });
});

describe('the certificate and the verify page after a free extension', () => {
  it('the certificate PDF (pdftotext) prints the extended window and the version naming the disruption; the verify page shows the new end and the amendment', async () => {
    const order = await paidOrder();
    expectStatus(await extend(order.orderRef, { extraDays: 2, disruptionId: lukla }), 200);
    const em = server.orm.em.fork();
    const row = await em.findOneOrFail(OrderAmendment, { order: order.orderId });
    const amendedOn = kathmanduToday(row.appliedAt!);
    const change = `cover extended under the Lukla disruption ${lukla} from ${lastDay} to ${addDays(lastDay, 2)}`;

    const certificate = await fetch(new URL(`${ORDERS}/${order.orderRef}/certificate`, serverBehind(server.url)), {
      headers: { authorization: `Bearer ${agency.token}` },
    });
    expectStatus(certificate, 200);
    const pdf = Buffer.from(await certificate.arrayBuffer());
    await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
    const text = await pdftotext(pdf);
    expect(text).toContain(`${departure} to ${addDays(lastDay, 2)}`);
    expect(text).toContain(`Version 2, amended ${amendedOn}: ${change}`);

    const { policyNumber, verificationCode } = await em.findOneOrFail(Order, order.orderId);
    const page = await client.op('verifyPolicy', 'GET', `/verify/${policyNumber}`, undefined, {
      direct: true,
      query: { code: verificationCode ?? '' },
    });
    expectStatus(page, 200);
    const html = String(page.body);
    expect(html).toContain(addDays(lastDay, 2));
    expect(html).toContain(`Amended on <span class="date">${amendedOn}</span>`);
    expect(html).toContain(`Version 2: cover extended under the Lukla disruption ${lukla} to ${addDays(lastDay, 2)}.`);
    // The page prints no window no longer in force.
    expect(html).not.toContain(lastDay);
    expect(html).toContain('Certificate version 2 is the current one.');
  });
});

describe('the invariant checker after extensions under disruptions', () => {
  it('finds nothing wrong after the free extensions and the refused ones above', async () => {
    // On a violation the checker exits 1: its report is what the failure shows.
    const output = await promisify(execFile)(process.execPath, [CHECKER], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(output).toContain('invariants: 0 violations');
  });

  it('exits 1 and names the extension when one under a disruption gives more days than it', async () => {
    const em = server.orm.em.fork();
    const [free] = await em.find(OrderAmendment, { disruption: { $ne: null } }, { limit: 1 });
    const move = (days: number) =>
      em
        .getConnection()
        .execute(`update order_amendment set coverage_end_date = coverage_end_date + ? where id = ?`, [days, free!.id]);
    await move(30);
    try {
      const failed = await promisify(execFile)(process.execPath, [CHECKER], {
        env: { ...process.env, DATABASE_URL: databaseUrl() },
      }).then(
        () => ({ code: 0, output: '' }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          output: `${error.stdout}${error.stderr}`,
        }),
      );
      expect(failed.code).toBe(1);
      expect(failed.output).toContain('extension under a disruption that charged something');
      expect(failed.output).toContain(free!.amendmentRef);
    } finally {
      await move(-30);
    }
  });
});
