import { Ctg } from '../../src/modules/catalogue/entities/ctg';
import { Order } from '../../src/modules/orders/entities/order';
import { Traveller } from '../../src/modules/travellers/entities/traveller';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { asExtracted, readPdf } from '../support/certificate-pdf';
import { expectContract } from '../support/contract';
import { randomUUID } from 'node:crypto';
import { first } from '../support/elements';
import type { ApiResponse } from '../support/http-client';
import { everestQuote, ORDERS, orderFromQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  deliverCallback,
  pay,
  paymentStatus,
  placeOrder,
  submitCheckout,
  type PlacedOrder,
} from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';
import { readablePage } from '../support/certificate-fixtures';
import { GLOSSARY } from '../../src/modules/certificates/glossary';

const ASSISTANCE = { ASSISTANCE_PHONE: '+977 1 5970 111', ASSISTANCE_EMAIL: 'rescue-desk@trekcover.example' };
const POLICY_WORDING_URL = 'https://trekcover.example/wording/trek-2026.pdf';
const COMPLIANCE = {
  POLICY_WORDING_VERSION: 'TREK-2026.1',
  INSURER_LICENCE: 'Nepal Insurance Authority licence 07/2061',
  INSURER_ADDRESS: 'Kamaladi, Kathmandu 44600, Nepal',
  INTERMEDIARY_ROLE: 'Corporate agent of the insurer',
  INTERMEDIARY_LICENCE: 'NIA corporate agent licence 1234',
};

const { server, client } = useTestServer({
  env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', POLICY_WORDING_URL, ...ASSISTANCE, ...COMPLIANCE },
});
let agency: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Trails Pvt. Ltd.' });
  listed = await newPartner(server, client, { name: 'Khumbu Guides' });
  stranger = await newPartner(server, client, { name: 'Langtang Treks' });
});

const certificatePath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}/certificate`;
const verifyPath = (policyNumber: string) => `/verify/${encodeURIComponent(policyNumber)}`;

/** Pays `order` by card through the sandbox checkout, as the customer's browser would. */
async function payByCard(partner: TestPartner, orderRef: string): Promise<void> {
  const started = await pay(client, partner, orderRef, { gateway: 'card_gateway' });
  const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
  if (!checkout.callbackUrl) throw new Error(`checkout refused: ${checkout.html}`);
  await deliverCallback(client, checkout.callbackUrl);
}

interface Certificate {
  response: Response;
  pdf: Buffer;
}

/**
 * GET /certificate with raw fetch: the body is binary, so instead of ApiClient.op's body check
 * the status must be documented for the operation, and a 200 must be the PDF the spec promises.
 */
async function downloadCertificate(partner: TestPartner, identifier: string): Promise<Certificate> {
  const response = await fetch(new URL(certificatePath(identifier), serverBehind(server.url)), {
    headers: { authorization: `Bearer ${partner.token}` },
  });
  const pdf = Buffer.from(await response.arrayBuffer());
  if (response.status === 200) {
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
  } else {
    await expectContract('getOrderCertificate', response.status, JSON.parse(pdf.toString('utf8')));
  }
  return { response, pdf };
}

const certificateError = (partner: TestPartner, identifier: string): Promise<ApiResponse> =>
  client.op('getOrderCertificate', 'GET', certificatePath(identifier), undefined, { token: partner.token });

/** A paid order of a traveller with `name` on the Everest Base Camp route (a catalogue route with its altitude). */
async function paidEverestOrder(
  name: string,
  overrides: { nationality?: string; dateOfBirth?: string; nameAsInPassport?: string } = {},
) {
  const touristId = await newTraveller(server, agency.companyId, { name, ...overrides });
  const quote = await everestQuote(client, agency);
  const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
    token: agency.token,
  });
  expectStatus(created, 201);
  await payByCard(agency, created.body.data.orderRef);
  const detail = await client.op('getOrder', 'GET', `${ORDERS}/${created.body.data.orderRef}`, undefined, {
    token: agency.token,
  });
  return { detail: detail.body.data, touristId };
}

describe('policy number', () => {
  it('when an order is paid by card, then it gets a policy number POL-<year>-<seq>, shown on the order detail and in payment-status', async () => {
    const order = await placeOrder(server, client, agency);
    const before = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expect(before.body.data.policyNumber).toBeNull();
    expect((await paymentStatus(client, agency, order.orderRef)).body.data.policyNumber).toBeUndefined();

    await payByCard(agency, order.orderRef);

    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    const year = kathmanduToday().slice(0, 4);
    expect(detail.body.data.policyNumber).toMatch(new RegExp(`^SBX-POL-${year}-\\d{6,}$`));
    const status = await paymentStatus(client, agency, order.orderRef);
    expect(status.body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      policyNumber: detail.body.data.policyNumber,
    });
  });

  it('when the operator records cash for a CASH order, then it gets a policy number in the same transaction', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    const { order: paid } = await recordCashPayment(
      server.orm.em.fork(),
      order.orderRef,
      { amount: 450_000 },
      'operator-cli:test',
    );
    expect(paid.policyNumber).toMatch(/^SBX-POL-\d{4}-\d{6,}$/);
    const status = await paymentStatus(client, agency, order.orderRef);
    expect(status.body.data).toMatchObject({ paymentMethod: 'CASH', policyNumber: paid.policyNumber });
  });

  it('when several orders are paid at the same moment, then each gets its own policy number', async () => {
    const orders: PlacedOrder[] = [];
    for (let i = 0; i < 4; i++) orders.push(await placeOrder(server, client, agency));
    // Every checkout first, then every callback at once: the settlements run concurrently.
    const callbacks: URL[] = [];
    for (const order of orders) {
      const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
      const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
      callbacks.push(checkout.callbackUrl as URL);
    }
    await Promise.all(callbacks.map((url) => deliverCallback(client, url)));

    const numbers = await Promise.all(
      orders.map(async (order) => (await paymentStatus(client, agency, order.orderRef)).body.data.policyNumber),
    );
    for (const number of numbers) expect(number).toMatch(/^SBX-POL-\d{4}-\d{6,}$/);
    expect(new Set(numbers).size).toBe(orders.length);
  });
});

describe('GET /orders/{orderRef}/certificate', () => {
  it("when a Latin-named traveller's order is paid, then the certificate is an A4 PDF with every field, the passport number masked", async () => {
    const touristId = await newTraveller(server, agency.companyId, {
      name: 'Sophie Keller',
      nationality: 'Germany',
      dateOfBirth: '1991-03-14',
    });
    const traveller = await server.orm.em.fork().findOneOrFail(Traveller, touristId);
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      {
        touristId,
        ctgId: '1c4e7a92-b3f0-4d65-8e19-a27c5b0d3f86',
        customRouteName: 'Kathmandu valley rim walk',
        departureDate: addDays(kathmanduToday(), 30),
      },
      { token: agency.token },
    );
    const orderRef = created.body.data.orderRef;
    await payByCard(agency, orderRef);
    const order = await server.orm.em.fork().findOneOrFail(Order, { orderRef }, { populate: ['ctg'] });

    const { response, pdf } = await downloadCertificate(agency, orderRef);

    expectStatus(response, 200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${order.policyNumber}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const read = await readPdf(pdf);
    // Page 1 for the checkpoint; the insurer's details and the terms follow on page 2.
    expect(read.pages).toHaveLength(2);
    const sheet = first(read.pages, 'the pages');
    expect(sheet.text).toContain('24-HOUR ASSISTANCE');
    expect(sheet.width).toBeCloseTo(595.28, 0);
    expect(sheet.height).toBeCloseTo(841.89, 0);
    const verifyUrl = `${serverBehind(server.url)}${verifyPath(order.policyNumber as string)}`;
    // The QR code and its link carry the check code, which unlocks the initials on the page.
    expect(order.verificationCode).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(sheet.links).toContain(`${verifyUrl}?code=${order.verificationCode}`);
    expect(read.text).toContain(`Check code ${order.verificationCode}`);
    const fields = [
      order.policyNumber as string,
      orderRef,
      'Sophie Keller',
      '1991-03-14',
      'Germany',
      `•••••${traveller.idNumber.slice(-3)}`,
      'Kathmandu valley rim walk',
      `${order.ctg.maxAltitude.toLocaleString('en-US')} m`,
      `${order.coverageStartDate} to ${order.coverageEndDate}`,
      order.ctg.name,
      order.ctg.code,
      order.ctg.insuranceCompany,
      ASSISTANCE.ASSISTANCE_PHONE,
      ASSISTANCE.ASSISTANCE_EMAIL,
      `Issued ${kathmanduToday(order.paidAt)} · Version 1`,
      verifyUrl,
      ...order.ctg.coverage.map((line) => line.name),
      ...order.includedDevices.map((device) => device.name),
    ];
    for (const field of fields) expect(read.text).toContain(field);
    expect(read.text).not.toContain(traveller.idNumber);
    for (const line of order.ctg.coverage) {
      const [whole, fraction] = (line.coverageAmount / 100).toFixed(2).split('.');
      expect(read.text).toContain(`NPR ${Number(whole).toLocaleString('en-US')}.${fraction}`);
    }
  });

  it("prints what an insurer's certificate carries: the premium paid and its currency, who sold it and the listed agencies, the policy wording link and the Issued version line", async () => {
    const touristId = await newTraveller(server, agency.companyId, { name: 'Lukas Brandt' });
    const quote = await everestQuote(client, agency);
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      orderFromQuote(quote, touristId, {
        // With the placing company, two agencies: the most an order lists.
        travelCompanyIds: [listed.companyId],
      }),
      { token: agency.token },
    );
    expectStatus(created, 201);
    const orderRef = created.body.data.orderRef;
    await payByCard(agency, orderRef);
    const order = await server.orm.em.fork().findOneOrFail(Order, { orderRef });

    const { pdf } = await downloadCertificate(agency, orderRef);

    const read = await readPdf(pdf);
    // The premium is the package only: the included devices' rental is equipment, printed apart (decision 0103).
    expect(order.totalAmount).toBeGreaterThan(order.packagePrice);
    const [whole, fraction] = (order.packagePrice / 100).toFixed(2).split('.');
    expect(read.text).toContain(`Premium paid ${order.currency} ${Number(whole).toLocaleString('en-US')}.${fraction}`);
    // Each label's Nepali under it, read after its value (decision record 0104).
    expect(read.text).toContain(
      `Sold by Himalayan Trails Pvt. Ltd. ${asExtracted(GLOSSARY.soldBy.ne)} Agencies listed Khumbu Guides`,
    );
    expect(read.text).not.toContain('Policyholder');
    expect(read.text).toContain(`Policy wording ${POLICY_WORDING_URL} (version ${COMPLIANCE.POLICY_WORDING_VERSION})`);
    expect(read.text).toContain(`Insurer's licence ${COMPLIANCE.INSURER_LICENCE}`);
    expect(read.text).toContain(
      `, ${COMPLIANCE.INSURER_ADDRESS} ${asExtracted(GLOSSARY.insurer.ne)} Insurer's licence`,
    );
    expect(read.text).toContain(`${COMPLIANCE.INTERMEDIARY_ROLE}; licence ${COMPLIANCE.INTERMEDIARY_LICENCE}`);
    // The package's excess and terms in brief, from the catalogue.
    const ctg = await server.orm.em.fork().findOneOrFail(Ctg, order.ctg.id);
    expect(ctg.excessAmount).toBeGreaterThan(0);
    expect(read.text).toContain(
      `Excess NPR ${(ctg.excessAmount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} of each claim is paid by the insured`,
    );
    // Its first words: a long link in it wraps, and the reader puts a space at the break.
    expect(read.text).toContain(`Key terms and exclusions ${ctg.termsConditions.slice(0, 60)}`);
    // A link wherever the row falls (page 2 once the Nepali labels have taken page 1's room).
    expect(read.pages.flatMap((page) => page.links)).toContain(POLICY_WORDING_URL);
    expect(read.text).toContain(`Issued ${kathmanduToday(order.paidAt)}`);
    expect(read.text).not.toContain('amended');
  });

  it('when the service runs sandbox payments, then every page of the certificate carries SPECIMEN — NOT INSURANCE and the verify page a banner saying it', async () => {
    const { detail } = await paidEverestOrder('Anna Berger');
    const read = await readPdf((await downloadCertificate(agency, detail.orderRef)).pdf);
    for (const page of read.pages) expect(page.text).toContain('SPECIMEN — NOT INSURANCE');
    const verification = await client.op('verifyPolicy', 'GET', verifyPath(detail.policyNumber), undefined, {
      direct: true,
    });
    expect(verification.body).toContain('SPECIMEN — NOT INSURANCE');
    expect(verification.body).toContain('nobody is insured by it');
    const unknown = await client.op('verifyPolicy', 'GET', verifyPath('POL-2026-999998'), undefined, { direct: true });
    expect(unknown.body).toContain('SPECIMEN — NOT INSURANCE');
  });

  it('prints "Premium paid" as the insurance less its discount, and the included equipment and the added services apart, never summed into it (decision 0103)', async () => {
    const touristId = await newTraveller(server, agency.companyId, { name: 'Jonas Weber' });
    const quote = await everestQuote(client, agency);
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      orderFromQuote(quote, touristId, {
        directDiscountPercent: 5,
        addedServices: [{ name: 'Porter for 12 days', price: 36000, quantity: 1 }],
        addedDevices: [{ name: 'Satellite phone rental', price: 7500, quantity: 2 }],
      }),
      { token: agency.token },
    );
    expectStatus(created, 201);
    const orderRef = created.body.data.orderRef;
    await payByCard(agency, orderRef);
    const order = await server.orm.em.fork().findOneOrFail(Order, { orderRef });
    const insurance = order.packagePrice;
    const printed = (minor: number) => `NPR ${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

    const read = await readPdf((await downloadCertificate(agency, orderRef)).pdf);

    expect(order.directDiscountAmount).toBeGreaterThan(0);
    expect(read.text).toContain(`Premium ${printed(insurance)}, less discount ${printed(order.directDiscountAmount)}`);
    expect(read.text).toContain(`Premium paid ${printed(insurance - order.directDiscountAmount)}`);
    expect(read.text).not.toContain(printed(order.totalAmount));
    expect(order.includedDevices.length).toBeGreaterThan(0);
    expect(read.text).toContain('INCLUDED EQUIPMENT (NOT INSURANCE)');
    for (const device of order.includedDevices)
      expect(read.text).toContain(`${device.name} × ${device.quantity} ${printed(device.priceForDuration)}`);
    expect(read.text).toContain(`Porter for 12 days × 1 (priced by the partner) ${printed(3_600_000)}`);
    expect(read.text).toContain(`Satellite phone rental × 2 (priced by the partner) ${printed(1_500_000)}`);
  });

  it('when the traveller has a name as in the passport, then the certificate prints it beside the native-script name, and the verify page takes the initials from it', async () => {
    const { detail } = await paidEverestOrder('陈美玲', { nameAsInPassport: 'CHEN<<MEI<LING' });
    const read = await readPdf((await downloadCertificate(agency, detail.orderRef)).pdf);
    expect(read.text).toContain(
      `Name ${asExtracted('陈美玲')} ${asExtracted(GLOSSARY.name.ne)} Name as in passport CHEN, MEI LING ${asExtracted(GLOSSARY.nameAsInPassport.ne)} Date of birth`,
    );
    const verification = await pageWithCode(detail);
    expect(verification.body).toContain('M. C.');
    expect(verification.body).not.toContain('陈');
  });

  it('when the partner types a display-only agency and its own route, then both are printed as stated by the partner, and the route does not hide the altitude the cover ends at', async () => {
    const touristId = await newTraveller(server, agency.companyId, { name: 'Tenzing Norgay' });
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      {
        touristId,
        ctgId: '1c4e7a92-b3f0-4d65-8e19-a27c5b0d3f86',
        customRouteName: 'Three Passes trek via Kongma La (5,535 m)',
        departureDate: addDays(kathmanduToday(), 30),
        customTravelAgencies: [{ name: 'Valid for all altitudes — approved by Nepal Police' }],
      },
      { token: agency.token },
    );
    expectStatus(created, 201);
    await payByCard(agency, created.body.data.orderRef);
    const order = await server.orm.em
      .fork()
      .findOneOrFail(Order, { orderRef: created.body.data.orderRef }, { populate: ['ctg'] });
    const covered = `${order.ctg.maxAltitude.toLocaleString('en-US')} m`;

    const read = await readPdf((await downloadCertificate(agency, order.orderRef)).pdf);

    expect(read.text).toContain(
      `Route (as stated by the partner) “Three Passes trek via Kongma La (5,535 m)”: cover applies on this route as stated, up to ${covered}`,
    );
    // The key terms say "registered routes": the endorsement extends them to the stated route in the same words, so they agree.
    expect(read.text.replace(/\s+/g, ' ')).toContain(
      `Endorsement: for this policy, the route stated by the partner (“Three Passes trek via Kongma La (5,535 m)”) counts as a registered route, up to ${covered}.`,
    );
    expect(read.text).not.toContain('not checked by the insurer');
    expect(read.text).toContain(
      `Maximum altitude covered ${covered}, whatever the route: nothing above ${covered} is covered`,
    );
    expect(read.text).toContain(
      'Agencies as stated by the partner “Valid for all altitudes — approved by Nepal Police”',
    );
    expect(read.text).toContain(`Sold by ${agency.companyName}`);
  });

  it("when the traveller's name is in Devanagari, then it is drawn with the embedded Devanagari face, on the route and altitude of the quote", async () => {
    const { detail } = await paidEverestOrder('सीता शर्मा', { nationality: 'Nepal' });
    const { response, pdf } = await downloadCertificate(agency, detail.orderRef);

    expectStatus(response, 200);
    const read = await readPdf(pdf);
    expect(read.text).toContain(asExtracted('सीता शर्मा'));
    expect(read.text).toContain(detail.policyNumber);
    expect(read.text).toContain('Nepal');
    expect(read.text).toContain(`${detail.routeName} (highest point 5,364 m)`);
    // The font is embedded: no viewer needs one of its own.
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);
  });

  it('accepts the order number, the order UUID and the payment reference as {orderRef}, and gives the same policy each time', async () => {
    const order = await placeOrder(server, client, agency);
    await payByCard(agency, order.orderRef);
    const paymentRef = (await paymentStatus(client, agency, order.orderRef)).body.data.paymentRef;
    const titles = [];
    for (const identifier of [order.orderNumber, order.orderId, paymentRef]) {
      const { response, pdf } = await downloadCertificate(agency, identifier);
      expectStatus(response, 200);
      titles.push((await readPdf(pdf)).title);
    }
    expect(new Set(titles).size).toBe(1);
  });

  it('when a registered agency listed on the order asks, then it gets the certificate (a READ)', async () => {
    const order = await placeOrder(server, client, agency, { travelCompanyIds: [listed.companyId] });
    await payByCard(agency, order.orderRef);
    expectStatus((await downloadCertificate(listed, order.orderRef)).response, 200);
  });

  it('when another company asks, then it is the 404 of an unknown order, with the same message: a stranger cannot tell which references exist', async () => {
    const order = await placeOrder(server, client, agency);
    await payByCard(agency, order.orderRef);
    const response = await certificateError(stranger, order.orderRef);
    expectStatus(response, 404);
    expect(response.body.message).toBe(`Order ${order.orderRef} not found`);
    expect((await certificateError(stranger, 'ORD-2026-999999')).body.message).toBe('Order ORD-2026-999999 not found');
  });

  it('when nothing matches the identifier, then it is a 404', async () => {
    expectStatus(await certificateError(agency, 'ORD-2026-999999'), 404);
  });

  it('when the order is not paid yet, then it is a 400 in error shape 2 naming its status', async () => {
    const order = await placeOrder(server, client, agency);
    const response = await certificateError(agency, order.orderRef);
    expectStatus(response, 400);
    expect(response.body.message).toContain('PENDING');
  });

  it('when the token is missing, then it is a 401 in error shape 1', async () => {
    const response = await client.op('getOrderCertificate', 'GET', certificatePath('ORD-2026-000001'));
    expectStatus(response, 401);
  });
});

/** The colours of the four states (verification-page.ts): each state is told by its words and its colour. */
const GREEN = '#0b6b3a';
const AMBER = '#a35d00';
const CRIMSON = '#9b1c47';
const SLATE = '#4a5560';
const RED = '#a1261b';

/** The verify page as the QR code opens it: with the policy's check code. */
async function pageWithCode(detail: { orderRef: string; policyNumber: string }) {
  const { verificationCode } = await server.orm.em.fork().findOneOrFail(Order, { orderRef: detail.orderRef });
  return client.op('verifyPolicy', 'GET', verifyPath(detail.policyNumber), undefined, {
    direct: true,
    query: { code: verificationCode ?? '' },
  });
}

describe('GET /verify/{policyNumber}', () => {
  const page = (policyNumber: string) =>
    client.op('verifyPolicy', 'GET', verifyPath(policyNumber), undefined, { direct: true });
  const setOrder = (
    orderRef: string,
    changes: Partial<Pick<Order, 'status' | 'coverageStartDate' | 'coverageEndDate'>>,
  ) => server.orm.em.fork().nativeUpdate(Order, { orderRef }, changes);

  it('when the policy is paid and today is inside its window, then the page says VALID in green with the window, the altitude covered and the initials only', async () => {
    const { detail } = await paidEverestOrder('Sophie Anna Keller', { dateOfBirth: '1990-07-21' });
    const ctg = await server.orm.em.fork().findOneOrFail(Ctg, detail.package.ctgId);
    // On the trek: the window began yesterday.
    const window = { coverageStartDate: addDays(kathmanduToday(), -1), coverageEndDate: addDays(kathmanduToday(), 14) };
    await setOrder(detail.orderRef, window);

    const response = await pageWithCode(detail);

    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(readablePage(response.body)).toContain('<h1>VALID</h1>');
    expect(readablePage(response.body)).toContain(GREEN);
    expect(readablePage(response.body)).toContain(
      `This policy covers today, until ${window.coverageEndDate} included.`,
    );
    expect(readablePage(response.body)).toContain(`${window.coverageStartDate} to ${window.coverageEndDate}`);
    expect(readablePage(response.body)).toContain(`${kathmanduToday()} (Nepal date)`);
    expect(readablePage(response.body)).toContain(`${ctg.maxAltitude.toLocaleString('en-US')} m`);
    expect(readablePage(response.body)).toContain('S. K.');
    expect(readablePage(response.body)).toContain('name="viewport"');
    expect(readablePage(response.body)).not.toMatch(/<script/i);
    for (const secret of ['Sophie', 'Keller', 'Anna', '1990-07-21', detail.orderRef, detail.traveller.email])
      expect(readablePage(response.body)).not.toContain(secret);
  });

  it('when the link carries what a messenger appends (utm_source, fbclid), then the page is the same', async () => {
    const { detail } = await paidEverestOrder('Pasang Sherpa');
    const plain = await page(detail.policyNumber);
    const shared = await client.op('verifyPolicy', 'GET', verifyPath(detail.policyNumber), undefined, {
      direct: true,
      query: { utm_source: 'whatsapp', fbclid: 'IwAR0x' },
    });
    expectStatus(shared, 200);
    expect(shared.body).toBe(plain.body);
  });

  it('when the name is in Devanagari and has no name as in passport, then the initials come from its transliteration, which an officer can match with a Latin passport', async () => {
    const { detail } = await paidEverestOrder('सीता शर्मा');
    const response = await pageWithCode(detail);
    expect(readablePage(response.body)).toContain('<dd>S. S.</dd>');
    expect(readablePage(response.body)).not.toContain('सीता');
    expect(readablePage(response.body)).not.toContain('स. श.');
  });

  it.each([
    [
      'the order was cancelled',
      'CANCELLED',
      { status: 'CANCELLED' },
      RED,
      'This policy was cancelled: it covers nothing.',
    ],
    [
      'the coverage window is over',
      'EXPIRED',
      { coverageStartDate: '2025-01-01', coverageEndDate: '2025-01-14' },
      CRIMSON,
      'The cover of this policy ended on 2025-01-14: it covers nothing today.',
    ],
  ] as const)(
    'when %s, then the page says %s in its own colour, never VALID',
    async (_case, headline, changes, colour, why) => {
      const { detail } = await paidEverestOrder('Ram Bahadur Thapa');
      await setOrder(detail.orderRef, changes as Partial<Order>);
      const response = await pageWithCode(detail);
      expectStatus(response, 200);
      expect(readablePage(response.body)).toContain(`<h1>${headline}</h1>`);
      expect(readablePage(response.body)).toContain(colour);
      expect(readablePage(response.body)).not.toContain(GREEN);
      expect(readablePage(response.body)).not.toContain('VALID</h1>');
      expect(readablePage(response.body)).toContain(why);
      expect(readablePage(response.body)).toContain('R. T.');
    },
  );

  it('when the cover starts later, then the page says NOT YET IN FORCE from the start date, in amber, not VALID: a checkpoint must not read it as covered today', async () => {
    const { detail } = await paidEverestOrder('Maya Gurung');
    expect(detail.coverageStartDate > kathmanduToday()).toBe(true);
    const response = await page(detail.policyNumber);
    expectStatus(response, 200);
    expect(readablePage(response.body)).toContain(`<h1>NOT YET IN FORCE — from ${detail.coverageStartDate}</h1>`);
    expect(readablePage(response.body)).toContain(AMBER);
    expect(readablePage(response.body)).not.toContain(GREEN);
    expect(readablePage(response.body)).not.toContain('<h1>VALID');
    expect(readablePage(response.body)).toContain(
      `does not cover today: its cover begins on ${detail.coverageStartDate}`,
    );
  });

  it('when the policy number is typed in lower case, with spaces or other dashes, then it finds the policy and names it as printed', async () => {
    const { detail } = await paidEverestOrder('Nima Lama');
    const printed: string = detail.policyNumber;
    const canonical = await page(printed);
    for (const typed of [
      printed.toLowerCase(),
      ` ${printed.replace(/-/g, ' ')} `,
      printed.replace(/-/g, ' - ').toLowerCase(),
      printed.replace(/-/g, '–'),
    ]) {
      const response = await page(typed);
      expectStatus(response, 200);
      expect(response.body).toBe(canonical.body);
      expect(readablePage(response.body)).toContain(`Policy ${printed}`);
    }
  });

  it('when the number is unknown, then the 404 page names the number looked up as printed; input that is not a policy number is one page that repeats nothing', async () => {
    const unknown = await page('POL-2026-999999');
    expectStatus(unknown, 404);
    expect(unknown.body).toContain('Policy not found');
    expect(unknown.body).toContain('No policy has the number <strong>POL-2026-999999</strong>');
    for (const typed of ['pol-2026-999999', 'POL 2026 999999']) expect((await page(typed)).body).toBe(unknown.body);
    const notANumber = await page('ORD-2026-000001');
    expectStatus(notANumber, 404);
    expect(notANumber.body).toContain('not a policy number');
    for (const guess of ['<script>alert(1)</script>', 'POL-2026-' + '9'.repeat(200), "POL' OR 1=1 --"]) {
      const response = await page(guess);
      expectStatus(response, 404);
      expect(response.body).toBe(notANumber.body);
    }
  });

  it("when a policy number is typed alone (or with a wrong check code), then the page shows its state, window and altitude but not the traveller's initials", async () => {
    const { detail } = await paidEverestOrder('Karma Dorje Sherpa');
    for (const response of [
      await page(detail.policyNumber),
      await client.op('verifyPolicy', 'GET', verifyPath(detail.policyNumber), undefined, {
        direct: true,
        query: { code: 'ZZZZZZ' },
      }),
    ]) {
      expectStatus(response, 200);
      expect(readablePage(response.body)).toContain(`${detail.coverageStartDate} to ${detail.coverageEndDate}`);
      expect(readablePage(response.body)).toMatch(/Maximum altitude covered<\/dt><dd>[\d,]+ m/);
      expect(readablePage(response.body)).not.toContain('K. S.');
      expect(readablePage(response.body)).toContain('Shown with the check code printed beside the QR code');
    }
    const withCode = await pageWithCode(detail);
    expect(withCode.body).toContain('K. S.');
  });

  it('gives the officer an action on every state: the 24-hour assistance number, and the underwriter on a found policy', async () => {
    const { detail } = await paidEverestOrder('Lhakpa Sherpa');
    const ctg = await server.orm.em.fork().findOneOrFail(Ctg, detail.package.ctgId);
    for (const response of [
      await page(detail.policyNumber),
      await page('POL-2026-999997'),
      await page('not-a-number'),
    ]) {
      expect(readablePage(response.body)).toContain(
        `Open a case through your agency or call the 24-hour assistance line: <a href="tel:+97715970111">${ASSISTANCE.ASSISTANCE_PHONE}</a>`,
      );
    }
    expect(readablePage((await page(detail.policyNumber)).body)).toContain(
      `<dt>Underwriter</dt><dd>${ctg.insuranceCompany}</dd>`,
    );
  });

  it('shows EXPIRED in a stop colour unlike the slate of "not found"', async () => {
    const { detail } = await paidEverestOrder('Dawa Sherpa');
    await setOrder(detail.orderRef, { coverageStartDate: '2025-01-01', coverageEndDate: '2025-01-14' });
    const expired = await page(detail.policyNumber);
    const notFound = await page('POL-2026-999996');
    expect(expired.body).toContain(`background:${CRIMSON}`);
    expect(expired.body).not.toContain(`background:${SLATE}`);
    expect(notFound.body).toContain(`background:${SLATE}`);
  });

  it('when the placing company cancelled the policy, then the page says CANCELLED with the Nepal date of the cancellation', async () => {
    const { detail } = await paidEverestOrder('Pemba Sherpa');
    const cancelled = await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${detail.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(cancelled, 200);
    const response = await page(detail.policyNumber);
    expect(readablePage(response.body)).toContain(`<h1>CANCELLED on ${kathmanduToday()}</h1>`);
    expect(readablePage(response.body)).toContain(
      `This policy was cancelled on ${kathmanduToday()}: it covers nothing.`,
    );
  });
});

describe('GET /verify/{policyNumber} rate limit', () => {
  // Behind a (loopback) proxy that names the client: an address of this test's own, whose count no other test ran up.
  // An hour's window, so that its four lookups cannot straddle a window boundary.
  const { client: limitedClient } = useTestServer({
    env: { RATE_LIMIT_VERIFY_PER_ADDRESS: '3', RATE_LIMIT_WINDOW_SECONDS: '3600', TRUST_PROXY: 'loopback' },
  });

  it('when one address looks up more policies than its limit, then it gets a 429 page with Retry-After', async () => {
    const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const lookup = (i: number, from: string) =>
      limitedClient.op('verifyPolicy', 'GET', verifyPath(`POL-2026-90000${i}`), undefined, {
        direct: true,
        headers: { 'x-forwarded-for': from },
      });
    const statuses = [];
    let last: ApiResponse | undefined;
    for (let i = 0; i < 4; i++) {
      last = await lookup(i, address);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    // Another address is not held back by this one.
    expectStatus(await lookup(9, `203.0.113.${1 + Math.floor(Math.random() * 250)}`), 404);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last?.headers.get('content-type')).toMatch(/^text\/html/);
    expect(last?.body).toContain('Too many lookups');
  });
});
