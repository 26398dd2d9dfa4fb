import { expectSchema } from '../support/contract';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { newTraveller } from '../support/traveller-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

// Issue 30, items 5 and 6: text PostgreSQL cannot store in `jsonb` (a NUL in a key, a lone
// surrogate anywhere) answered 500; text that reshapes printed documents (line and paragraph
// separators, bidirectional controls) was accepted and printed as extra certificate lines.
const { server, client } = useTestServer();
let partner: TestPartner;
let touristId: string;
beforeAll(async () => {
  partner = await newPartner(server, client);
  touristId = await newTraveller(server, partner.companyId);
});

async function refusedOrder(extra: Record<string, unknown>) {
  const response = await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId, extra), { token: partner.token });
  expectStatus(response, 400);
  expectSchema('ApiError', response.body);
  return response.body.details;
}

describe('JSON objects from partners refuse what jsonb cannot hold, with a 400 naming the field', () => {
  it('when an extraFields key holds a NUL, then the answer is 400 naming the key, printed escaped', async () => {
    const body = await refusedOrder({ extraFields: { 'ref\u0000x': 'a' } });
    expect(body.fieldErrors).toEqual({ 'extraFields.ref\\u0000x': 'must not contain the NUL character in a key' });
  });

  it('when a dispatchInfo key deeper down holds a lone surrogate, then the answer is 400 naming the key', async () => {
    const body = await refusedOrder({ dispatchInfo: { pickup: { '\uD800point': 'Lukla' } } });
    expect(body.fieldErrors).toEqual({
      'dispatchInfo.pickup.\\uD800point': 'must not contain an unpaired surrogate (no character) in a key',
    });
  });

  it('when a value in extraFields holds a lone surrogate, then the answer is 400 naming the value', async () => {
    const body = await refusedOrder({ extraFields: { notes: ['fine', 'half \uDC00 a pair'] } });
    expect(body.fieldErrors).toEqual({
      'extraFields.notes[1]': 'must not contain an unpaired surrogate (no character)',
    });
  });

  it('when a key and value hold whole surrogate pairs (emoji), then the order is taken and returned unchanged', async () => {
    const response = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      lowTrek(touristId, { extraFields: { '🏔️': 'Everest 🥾' } }),
      { token: partner.token },
    );
    expectStatus(response, 201);
    expect(response.body.data.extraFields).toEqual({ '🏔️': 'Everest 🥾' });
  });
});

describe('partner text refuses line and paragraph separators and bidirectional controls, as it refuses C0/C1', () => {
  it.each([
    ['U+2028 line separator', 'Lukla\u2028COVER: ALL ACTIVITIES, NO LIMIT'],
    ['U+2029 paragraph separator', 'Lukla\u2029COVER: ALL ACTIVITIES'],
    ['U+202E right-to-left override', 'Lukla \u202Etimil on'],
    ['U+2066 left-to-right isolate', 'Lukla \u2066x\u2069'],
    // Issue 40: direction marks and zero-width characters.
    ['U+200F right-to-left mark', 'Lukla \u200Fwalk'],
    ['U+200E left-to-right mark', 'Lukla \u200Ewalk'],
    ['U+061C Arabic letter mark', 'Lukla \u061Cwalk'],
    ['U+200B zero-width space', 'Luk\u200Bla'],
    ['U+FEFF zero-width no-break space', 'Lukla\uFEFF'],
  ])('when customRouteName holds a %s, then the answer is 400 naming the field in words', async (_what, name) => {
    const body = await refusedOrder({ customRouteName: name });
    expect(body.fieldErrors).toEqual({
      customRouteName: expect.stringMatching(
        /line or paragraph separators, direction marks or overrides, zero-width characters/,
      ),
    });
  });

  it('when a free-text query parameter holds a paragraph separator, then the answer is 400 naming it', async () => {
    const response = await client.op(
      'listTravellers',
      'GET',
      `/api/external/v1/travellers?search=${encodeURIComponent('Keller\u2029x')}`,
      undefined,
      { token: partner.token },
    );
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toEqual({
      search: expect.stringMatching(/line or paragraph separators/),
    });
  });

  it('when text holds right-to-left script (Arabic, Hebrew) without controls, then it is accepted', async () => {
    const response = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      lowTrek(touristId, { customRouteName: 'مسار لوكلا — מסלול' }),
      { token: partner.token },
    );
    expectStatus(response, 201);
  });
});
