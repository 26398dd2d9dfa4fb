import { Traveller } from '../../src/modules/travellers/entities/traveller';
import { asExtracted, charactersWithoutGlyph, readPdf } from '../support/certificate-pdf';
import { expectContract } from '../support/contract';
import { registerTraveller, travellerInput, uploadTravellerDocuments, TRAVELLERS_PATH } from '../support/documents';
import { everestQuote, ORDERS, orderFromQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, submitCheckout } from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';
import { GLOSSARY } from '../../src/modules/certificates/glossary';

const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Scripts Treks' });
});

/** Registers a traveller named `name` through POST /travellers, orders the Everest quote, pays it by card and downloads the certificate. */
async function certificateOfTravellerNamed(name: string): Promise<Buffer> {
  const touristId = await registerTraveller(client, agency, { name });
  const quote = await everestQuote(client, agency);
  const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
    token: agency.token,
  });
  expectStatus(created, 201);
  const orderRef: string = created.body.data.orderRef;
  const started = await pay(client, agency, orderRef, { gateway: 'card_gateway' });
  const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
  if (!checkout.callbackUrl) throw new Error(`checkout refused: ${checkout.html}`);
  await deliverCallback(client, checkout.callbackUrl);
  const response = await fetch(new URL(`${ORDERS}/${orderRef}/certificate`, serverBehind(server.url)), {
    headers: { authorization: `Bearer ${agency.token}` },
  });
  expectStatus(response, 200);
  const pdf = Buffer.from(await response.arrayBuffer());
  await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
  return pdf;
}

describe("a certificate prints the insured's name in its own script", () => {
  const NOT_GIVEN =
    'Name in Latin letters not given: the agency gave no name as in the passport; compare the date of birth and the end of the passport number';
  it.each([
    ['Latin with diacritics', 'Łucja Dvořák-Nguyễn', 'no Latin row'],
    ['Devanagari', 'सीता शर्मा', 'a transliteration'],
    ['Cyrillic', 'Иван Петров', 'a transliteration'],
    ['Greek', 'Γιώργος Παπαδόπουλος', 'a transliteration'],
    ['Chinese', '王小明', 'no Latin name given'],
    ['Japanese', '佐藤 さくら', 'no Latin name given'],
    ['Korean', '김민준', 'no Latin name given'],
    ['Hebrew', 'דוד כהן', 'no Latin name given'],
    ['Arabic', 'محمد علي', 'no Latin name given'],
    ['Thai', 'สมชาย ใจดี', 'no Latin name given'],
  ])(
    'when a traveller with a %s name (%s) is registered, ordered and paid, then the certificate has the name in its text and an embedded glyph for every character, and beside it %s',
    async (_script, name, latin) => {
      const pdf = await certificateOfTravellerNamed(name);
      const read = await readPdf(pdf);
      // As PDF.js reads it back: Devanagari in glyph order, Hebrew and Arabic words in the order drawn (see asExtracted).
      // A transliteration, where the script has one, stands between the name and the date of birth (transliteration.test.ts).
      const transliterated = / Name in Latin letters [^()]* \(transliterated, not as in passport\)/;
      if (latin === 'a transliteration') expect(read.text).toMatch(transliterated);
      else expect(read.text).not.toMatch(transliterated);
      const latinLabel = ` ${asExtracted(GLOSSARY.nameInLatinLetters.ne)}`;
      const withoutTransliteration =
        latin === 'a transliteration' ? read.text.replace(transliterated, '').replace(latinLabel, '') : read.text;
      // No table for the script: nothing guessed, and the officer told what to compare instead (decision record 0103).
      const after = latin === 'no Latin name given' ? ` ${NOT_GIVEN}${latinLabel}` : '';
      // The row's Nepali label under its English one, read after the value (decision record 0104).
      expect(withoutTransliteration).toContain(
        `Name ${asExtracted(name)} ${asExtracted(GLOSSARY.name.ne)}${after} Date of birth`,
      );
      expect(charactersWithoutGlyph(pdf, name)).toEqual([]);
      // Registration, order, card checkout and download: a minute on a busy two-core machine.
    },
    90_000,
  );
});

describe('registration refuses a name the certificate cannot print', () => {
  it.each([
    ['Cuneiform', '𒀀𒀁 Ninlil', ['𒀀', '𒀁']],
    ['Ethiopic', 'አበበ ቢቂላ', ['አ', 'በ', 'ቢ', 'ቂ', 'ላ']],
  ])(
    "when a traveller's name is in %s, then POST /travellers is a 400 naming those characters on [0].name, and nothing is registered",
    async (_script, name, characters) => {
      const documents = await uploadTravellerDocuments(client, agency.token);
      const response = await client.op(
        'registerTravellers',
        'POST',
        TRAVELLERS_PATH,
        [travellerInput(documents, { name })],
        { token: agency.token },
      );
      expectStatus(response, 400);
      const error: string = response.body.details.fieldErrors['[0].name'];
      expect(error).toMatch(/^contains characters the certificate cannot print: /);
      for (const character of characters) expect(error).toContain(`"${character}"`);
      expect(error).not.toContain('"N"');
      expect(await server.orm.em.fork().count(Traveller, { name })).toBe(0);
    },
  );
});
