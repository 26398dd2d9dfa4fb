import { Order } from '../../src/modules/orders/entities/order';
import { pageLanguage } from '../../src/modules/certificates/rules/page-language';
import { GLOSSARY } from '../../src/modules/certificates/glossary';
import { expectContract } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';
import { readablePage } from '../support/certificate-fixtures';

const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let agency: TestPartner;
let policy: { policyNumber: string; code: string };

/** A card-paid order whose cover starts later: NOT YET IN FORCE. */
beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Kathmandu Bhasa Treks' });
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
  const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
  if (!checkout.callbackUrl) throw new Error(`checkout refused: ${checkout.html}`);
  await deliverCallback(client, checkout.callbackUrl);
  const { policyNumber, verificationCode } = await server.orm.em
    .fork()
    .findOneOrFail(Order, { orderRef: order.orderRef });
  policy = { policyNumber: policyNumber ?? '', code: verificationCode ?? '' };
});

/** GET /verify/{policyNumber} over HTTP, as a phone asks for it. */
async function verify(query: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await client.op('verifyPolicy', 'GET', `/verify/${policy.policyNumber}`, undefined, {
    direct: true,
    query,
    headers,
  });
  expectStatus(response, 200);
  await expectContract('verifyPolicy', 200, response.body, response.headers.get('content-type') ?? undefined);
  expect(response.headers.get('vary')).toMatch(/\bAccept-Language\b/i);
  return { language: response.headers.get('content-language'), html: readablePage(String(response.body)) };
}

const NEPALI_PAGE = [
  '<html lang="ne">',
  // The verdict up to its date: "not yet in force — from <date>".
  `<h1>${GLOSSARY.notYetInForceFrom.ne.split('{date}')[0]}`,
  `<dt>${GLOSSARY.coverageWindow.ne}</dt>`,
  `<dt>${GLOSSARY.maximumAltitude.ne}</dt>`,
  `<dt>${GLOSSARY.helicopterEvacuation.ne}</dt>`,
  `<dt>${GLOSSARY.underwriter.ne}</dt>`,
  GLOSSARY.assistanceLine.ne,
];

describe('the verify page in Nepali (decision record 0104)', () => {
  it('when the link says ?lang=ne, then the page answers in Nepali: its verdict, labels and assistance line, Content-Language ne', async () => {
    const { language, html } = await verify({ code: policy.code, lang: 'ne' });
    expect(language).toBe('ne');
    for (const words of NEPALI_PAGE) expect(html).toContain(words);
    expect(html).not.toContain('<dt>Coverage window</dt>');
    expect(html).not.toContain('NOT YET IN FORCE');
  });

  it('when the phone asks for Nepali (Accept-Language: ne-NP, ne), then the page is in Nepali without ?lang', async () => {
    for (const accept of ['ne', 'ne-NP,ne;q=0.9,en;q=0.5']) {
      const { language, html } = await verify({ code: policy.code }, { 'accept-language': accept });
      expect([accept, language]).toEqual([accept, 'ne']);
      for (const words of NEPALI_PAGE) expect(html).toContain(words);
    }
  });

  it('when the phone prefers English, asks for nothing, or the link says ?lang=en, then the page is in English, Content-Language en', async () => {
    for (const [query, accept] of [
      [{}, 'en-GB,en;q=0.9,ne;q=0.5'],
      [{}, ''],
      [{ lang: 'en' }, 'ne'],
      [{ lang: 'fr' }, 'de'],
    ] as const) {
      const { language, html } = await verify(
        { code: policy.code, ...query },
        accept ? { 'accept-language': accept } : {},
      );
      expect([query, accept, language]).toEqual([query, accept, 'en']);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('NOT YET IN FORCE');
      expect(html).toContain('<dt>Coverage window</dt>');
    }
  });

  it('when the officer types the check code on a Nepali page, then the form keeps the page in Nepali', async () => {
    const { html } = await verify({ lang: 'ne' });
    expect(html).toContain('<input type="hidden" name="lang" value="ne">');
    expect(html).toContain(`<label for="code">${GLOSSARY.checkCodeLabel.ne}</label>`);
  });
});

describe('the language of the verify page, from ?lang and Accept-Language', () => {
  it.each([
    ['ne', undefined, 'ne'],
    ['en', 'ne', 'en'],
    [undefined, 'ne-NP', 'ne'],
    [undefined, 'NE', 'ne'],
    [undefined, 'en;q=0.8, ne;q=0.9', 'ne'],
    [undefined, 'ne;q=0.4, en', 'en'],
    [undefined, 'hi, ne;q=0.3', 'ne'],
    [undefined, 'fr, de', 'en'],
    [undefined, undefined, 'en'],
    ['xx', 'ne', 'ne'],
  ] as const)('lang=%s and Accept-Language "%s" answer %s', (lang, accept, expected) => {
    expect(pageLanguage(lang, accept)).toBe(expected);
  });
});
