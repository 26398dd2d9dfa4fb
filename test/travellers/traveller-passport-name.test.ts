import { Order } from '../../src/modules/orders/entities/order';
import { versionCheckCode } from '../../src/modules/certificates/rules/certificate-version';
import { readPdf } from '../support/certificate-pdf';
import { travellerInput, uploadTravellerDocuments, TRAVELLERS_PATH } from '../support/documents';
import { expectStatus } from '../support/expect-status';
import { everestQuote, ORDERS, orderFromQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, submitCheckout } from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';

const { server, client } = useTestServer();
let agency: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Passport Name Treks' });
  stranger = await newPartner(server, client, { name: 'Stranger Passport Treks' });
});

async function register(name: string, extra: Record<string, unknown> = {}) {
  const documents = await uploadTravellerDocuments(client, agency.token);
  const response = await client.op(
    'registerTravellers',
    'POST',
    TRAVELLERS_PATH,
    [{ ...travellerInput(documents, { name }), ...extra }],
    { token: agency.token },
  );
  expectStatus(response, 201);
  return response.body.data[0];
}

const update = (touristId: string, body: unknown, partner: TestPartner = agency) =>
  client.op('updateTraveller', 'PATCH', `${TRAVELLERS_PATH}/${touristId}`, body, { token: partner.token });

async function paidOrderOf(touristId: string) {
  const quote = await everestQuote(client, agency);
  const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
    token: agency.token,
  });
  expectStatus(created, 201);
  const orderRef: string = created.body.data.orderRef;
  const started = await pay(client, agency, orderRef, { gateway: 'card_gateway' });
  const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  return server.orm.em.fork().findOneOrFail(Order, { orderRef });
}

async function certificateText(orderRef: string) {
  const response = await fetch(new URL(`${ORDERS}/${orderRef}/certificate`, serverBehind(server.url)), {
    headers: { authorization: `Bearer ${agency.token}` },
  });
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return (await readPdf(Buffer.from(await response.arrayBuffer()))).text;
}

const verifyWithCode = (policyNumber: string, code: string) =>
  client.op<string>('verifyPolicy', 'GET', `/verify/${encodeURIComponent(policyNumber)}`, undefined, {
    direct: true,
    query: { code },
  });

describe('a non-Latin name without the name as in the passport (decision record 0103)', () => {
  it('is registered with a NAME_NOT_AS_IN_PASSPORT warning saying what the certificate prints; a Latin name or a passport name has none', async () => {
    const chinese = await register('陈美玲');
    expect(chinese.warnings).toEqual([
      {
        code: 'NAME_NOT_AS_IN_PASSPORT',
        field: 'nameAsInPassport',
        message: `The name is not in Latin letters and no nameAsInPassport was given: the certificate says no Latin name was given and the verification page shows no initials. Add the name as in the passport with PATCH /travellers/${chinese.touristId}.`,
      },
    ]);
    const russian = await register('Иван Петров');
    expect(russian.warnings[0].message).toContain(
      'the certificate prints "Ivan Petrov" marked (transliterated, not as in passport)',
    );
    expect((await register('Sophie Keller')).warnings).toEqual([]);
    expect((await register('王小明', { nameAsInPassport: 'WANG<<XIAOMING' })).warnings).toEqual([]);
  });

  it('prints no native-script initials on the verify page: it says no Latin name is on record', async () => {
    const traveller = await register('王小明');
    const order = await paidOrderOf(traveller.touristId);
    const page = await verifyWithCode(order.policyNumber!, order.verificationCode!);
    expectStatus(page, 200);
    expect(page.body).toContain('No name in Latin letters on record');
    expect(page.body).not.toContain('王.');
  });

  it('when the partner adds the name as in the passport, then the warning goes, each certificate the traveller is on gets a new version listing the change, and the verify page takes the initials from it', async () => {
    const traveller = await register('陈美玲');
    const order = await paidOrderOf(traveller.touristId);
    expect(await certificateText(order.orderRef)).toContain('Name in Latin letters not given');

    const answer = await update(traveller.touristId, { nameAsInPassport: 'chen<<mei<ling' });
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({ nameAsInPassport: 'CHEN<<MEI<LING', warnings: [] });

    const text = await certificateText(order.orderRef);
    expect(text).toContain('Name as in passport CHEN, MEI LING');
    expect(text).not.toContain('Name in Latin letters not given');
    expect(text).toMatch(/Version 2, \d{4}-\d{2}-\d{2} Name as in passport added \(this certificate\)/);
    const page = await verifyWithCode(order.policyNumber!, versionCheckCode(order.verificationCode!, 2));
    expectStatus(page, 200);
    expect(page.body).toContain('M. C.');
    // Version 1's paper, printed without the name, is superseded.
    const old = await verifyWithCode(order.policyNumber!, order.verificationCode!);
    expect(old.body).toContain('superseded');

    // The same name again changes nothing: no third version.
    expectStatus(await update(traveller.touristId, { nameAsInPassport: 'CHEN<<MEI<LING' }), 200);
    expect(await certificateText(order.orderRef)).not.toContain('Version 3');
  });

  it('is refused for another company (404), a name not as a passport prints it, or another field (400)', async () => {
    const traveller = await register('陈美玲');
    expectStatus(await update(traveller.touristId, { nameAsInPassport: 'CHEN<<MEI<LING' }, stranger), 404);
    expectStatus(await update(traveller.touristId, { nameAsInPassport: '陈美玲' }), 400);
    expectStatus(await update(traveller.touristId, { nameAsInPassport: 'CHEN MEI', name: 'Chen' }), 400);
  });
});
