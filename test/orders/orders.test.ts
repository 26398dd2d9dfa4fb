import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { Order } from '../../src/modules/orders/entities/order';
import { Quote } from '../../src/modules/catalogue/entities/quote';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { departure, everestQuote, orderFromQuote, ORDERS, writtenState } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import type { WireJson } from '../support/http-client';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner;
let touristId: string;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Trails Pvt. Ltd.', commissionPercent: '10.00' });
  touristId = await newTraveller(server, agency.companyId);
});

const createOrders = (body: unknown, partner: TestPartner = agency) =>
  client.op('createOrders', 'POST', ORDERS, body, { token: partner.token });
const getOrder = (identifier: string, partner: TestPartner = agency) =>
  client.op('getOrder', 'GET', `${ORDERS}/${encodeURIComponent(identifier)}`, undefined, { token: partner.token });

/** A quote-less order on a custom route with the 3,000 m package: 4,500.00 for 7 days, no devices. */
const lowTrek = (extra: Record<string, unknown> = {}) => ({
  touristId,
  ctgId: CTGS.standard3000,
  customRouteName: 'Kathmandu valley rim walk',
  departureDate: departure,
  ...extra,
});

/** Sends a request that must be rejected and proves it wrote nothing. */
async function expectRejected(body: unknown, status: number, quoteIds: string[] = [], partner: TestPartner = agency) {
  const before = await writtenState(server, partner.companyId, quoteIds);
  const response = await createOrders(body, partner);
  expectStatus(response, status);
  expect(await writtenState(server, partner.companyId, quoteIds)).toEqual(before);
  return response;
}

describe('POST /orders with an object body', () => {
  it('when the body is an object backed by a quote, then one order is created with the quoted price and cover window', async () => {
    const quote = await everestQuote(client, agency);
    const response = await createOrders(orderFromQuote(quote, touristId));
    expectStatus(response, 201);
    const order = response.body.data;
    expect(order.orderRef).toMatch(/^ORD-\d{4}-\d{6,}$/);
    expect(order.orderNumber).toMatch(/^ORDN-\d{4}-\d{6,}$/);
    expect(order).toMatchObject({
      status: 'PENDING',
      settlementType: 'ONLINE',
      traveller: { touristId },
      package: { ctgId: CTGS.everestBaseCampSpecial, ctgCode: 'TRK-EBC-5500' },
      routeId: ROUTES.everestBaseCamp,
      routeName: 'Everest Base Camp Trek',
      customRouteName: null,
      departureDate: departure,
      coverageStartDate: departure,
      coverageEndDate: addDays(departure, 15),
      durationDays: 16,
      quoteId: quote.quoteId,
      groupRef: null,
      commissionCompanyId: null,
      promoCodes: { companyPromoCode: null, agentPromoCode: null },
      binding: { type: 'NONE', ownerId: null, ownerName: null },
      paidAt: null,
    });
    // 15,400 for 14 base days + 2 extra days at 900, plus 16 days of SOS tracker (110) and oximeter (40)
    expect(order.pricing).toMatchObject({
      currency: 'NPR',
      packagePrice: 17200,
      includedDevicesPrice: 2400,
      subtotal: 19600,
      totalDiscount: 0,
      totalAmount: quote.totalAmount,
    });
    expect(order.promoApplyResult).toBeUndefined();
  });

  it('when an order uses a quote, then the quote becomes USED and a second order on it is a 409 that writes nothing', async () => {
    const quote = await everestQuote(client, agency);
    expectStatus(await createOrders(orderFromQuote(quote, touristId)), 201);
    const stored = await server.orm.em.fork().findOneOrFail(Quote, quote.quoteId);
    expect(stored.status).toBe('USED');
    const first = await server.orm.em.fork().findOneOrFail(Order, { quote: quote.quoteId });
    const second = await expectRejected(orderFromQuote(quote, touristId), 409);
    expect(second.body).toMatchObject({
      code: 'QUOTE_ALREADY_USED',
      message: `Quote ${quote.quoteId} has already been used by order ${first.orderRef}: one quote makes one order. Ask POST /reference/quote for a new quote`,
    });
  });

  it('when there is no quote, then the cover runs for the package base duration from the departure date', async () => {
    const response = await createOrders(lowTrek());
    expectStatus(response, 201);
    expect(response.body.data).toMatchObject({
      routeId: null,
      routeName: null,
      customRouteName: 'Kathmandu valley rim walk',
      coverageStartDate: departure,
      coverageEndDate: addDays(departure, 6),
      durationDays: 7,
      quoteId: null,
    });
    expect(response.body.data.pricing).toMatchObject({
      packagePrice: 4500,
      includedDevicesPrice: 0,
      totalAmount: 4500,
    });
  });

  it('when included devices are excluded, then they are dropped and the total is recalculated without them', async () => {
    const quote = await everestQuote(client, agency);
    const tracker = quote.includedDevices[0];
    const response = await createOrders(
      orderFromQuote(quote, touristId, { excludedIncludedDeviceIds: [tracker.deviceId] }),
    );
    expectStatus(response, 201);
    const pricing = response.body.data.pricing;
    expect(pricing.excludedIncludedDeviceIds).toEqual([tracker.deviceId]);
    expect(pricing.includedDevices.map((device: { deviceId: string }) => device.deviceId)).not.toContain(
      tracker.deviceId,
    );
    expect(pricing.totalAmount).toBe(quote.totalAmount - tracker.priceForDuration);
  });

  it('when an excluded device is not an included device of the package, then it is a 400 naming the item', async () => {
    const quote = await everestQuote(client, agency);
    const response = await expectRejected(
      orderFromQuote(quote, touristId, { excludedIncludedDeviceIds: ['0e7d3b5a-c91f-4a26-b8e4-6f2a09d1c5e7'] }),
      400,
      [quote.quoteId],
    );
    expect(response.body.details.fieldErrors).toHaveProperty(['excludedIncludedDeviceIds[0]']);
  });

  it.each([
    ['both routeId and customRouteName', { routeId: ROUTES.poonHill }, 'customRouteName'],
    ['neither routeId nor customRouteName', { customRouteName: undefined }, 'routeId'],
    ['a departure date before today in Kathmandu', { departureDate: addDays(kathmanduToday(), -1) }, 'departureDate'],
    ['a direct discount above the company commission', { directDiscountPercent: 10.5 }, 'directDiscountPercent'],
    ['a direct discount with more than two decimals', { directDiscountPercent: 1.005 }, 'directDiscountPercent'],
    ['a settlementType other than ONLINE or CASH', { settlementType: 'CHEQUE' }, 'settlementType'],
    [
      'the singular field travelCompanyId',
      { travelCompanyId: '5b0f3c1e-8d2a-4c7e-9f14-2a6b8c0d1e37' },
      'travelCompanyId',
    ],
    ['the singular field customTravelAgency', { customTravelAgency: { name: 'Old style' } }, 'customTravelAgency'],
    [
      'a custom travel agency without a name',
      { customTravelAgencies: [{ country: 'Nepal' }] },
      'customTravelAgencies[0].name',
    ],
    [
      'a custom travel agency with a blank name',
      { customTravelAgencies: [{ name: '   ' }] },
      'customTravelAgencies[0].name',
    ],
    [
      'an added service priced with three decimals',
      { addedServices: [{ name: 'Porter', price: 10.005 }] },
      'addedServices[0].price',
    ],
    ['extraFields larger than 8 KiB', { extraFields: { note: 'x'.repeat(9000) } }, 'extraFields'],
    ['a touristId that is not a UUID', { touristId: 'sophie' }, 'touristId'],
    ['a departure date past 2099 (9999-12-20)', { departureDate: '9999-12-20' }, 'departureDate'],
    ['a custom route name with a forged second line', { customRouteName: 'Poon Hill\nstatus PAID' }, 'customRouteName'],
    [
      'a custom travel agency name with an OSC escape',
      { customTravelAgencies: [{ name: 'Agency \u001b]8;;https://evil.example\u0007link' }] },
      'customTravelAgencies[0].name',
    ],
    [
      'an added service name with a C1 control',
      { addedServices: [{ name: 'Porter\u009b', price: 10 }] },
      'addedServices[0].name',
    ],
    ['a promo code with a carriage return', { promoCode: 'SUMMIT10\r' }, 'promoCode'],
    ['a referral code with a tab', { referralCode: 'REF\t1' }, 'referralCode'],
  ])(
    'when the order has %s, then it is a 400 with a field error and nothing is written',
    async (_rule, change, field) => {
      const response = await expectRejected(JSON.parse(JSON.stringify(lowTrek(change))), 400);
      expect(response.body.details.fieldErrors).toHaveProperty([field]);
    },
  );

  it.each([
    [
      'both routeId and customRouteName',
      { routeId: ROUTES.poonHill },
      { customRouteName: 'send either routeId or customRouteName, not both' },
    ],
    [
      'neither routeId nor customRouteName',
      { customRouteName: undefined },
      { routeId: 'routeId or customRouteName is required' },
    ],
    [
      'a blank promo code',
      { promoCode: '   ' },
      {
        promoCode:
          'must not be blank or contain control characters, line or paragraph separators, direction marks or overrides or zero-width characters',
      },
    ],
    [
      'three agencies across the two lists',
      {
        travelCompanyIds: ['5b0f3c1e-8d2a-4c7e-9f14-2a6b8c0d1e37'],
        customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }, { name: 'Pokhara Lakeside Treks' }],
      },
      { customTravelAgencies: 'at most 2 agencies in total' },
    ],
  ])(
    'when the order has %s (a rule the schema states), then the field error is the one the server has always given',
    async (_rule, change, fieldErrors) => {
      const response = await expectRejected(JSON.parse(JSON.stringify(lowTrek(change))), 400);
      expect(response.body.details.fieldErrors).toEqual(fieldErrors);
    },
  );

  it('when extraFields nest 6,000 deep (12 KB), then it is a 400 naming where the body goes too deep, and nothing is written', async () => {
    // JSON.stringify overflowed its stack on this body: a 500 before bodies were limited to 32 levels.
    const deep = '{"a":'.repeat(6000) + '1' + '}'.repeat(6000);
    const body = JSON.stringify(lowTrek()).replace(/}$/, `,"extraFields":${deep}}`);
    const before = await writtenState(server, agency.companyId, []);
    const response = await client.op('createOrders', 'POST', ORDERS, undefined, {
      token: agency.token,
      raw: body,
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toEqual({
      [`extraFields${'.a'.repeat(31)}`]: 'must not nest deeper than 32 levels',
    });
    expect(await writtenState(server, agency.companyId, [])).toEqual(before);
  });

  it('when the direct discount equals the company commission, then it is taken off the insurance after promo discounts', async () => {
    const quote = await everestQuote(client, agency);
    const response = await createOrders(
      orderFromQuote(quote, touristId, {
        directDiscountPercent: 10,
        addedServices: [{ name: 'Airport pickup', price: 1500 }],
      }),
    );
    expectStatus(response, 201);
    expect(response.body.data.pricing).toMatchObject({
      directDiscountPercent: 10,
      directDiscountAmount: 1960,
      addedItemsPrice: 1500,
      subtotal: 21100,
      totalAmount: 19140,
    });
  });

  describe('agencies', () => {
    it('when a travel agency orders, then its own company is on the order as a registered agency', async () => {
      const response = await createOrders(lowTrek());
      expect(response.body.data.travelCompanies).toEqual([{ companyId: agency.companyId, name: agency.companyName }]);
    });

    it('when a travel agency adds two custom agencies, then its injected company makes three and it is a 400', async () => {
      const response = await expectRejected(
        lowTrek({ customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }, { name: 'Pokhara Lakeside Treks' }] }),
        400,
      );
      expect(response.body.details.fieldErrors.customTravelAgencies).toContain('including your own company');
    });

    it('when a travel agency adds one custom agency, then the two agencies are accepted', async () => {
      const response = await createOrders(
        lowTrek({
          customTravelAgencies: [
            {
              name: 'Kathmandu Base Adventures',
              contactEmail: 'bookings@kathmandubase.example.com',
              contactPhone: '+977 1 4412345',
              country: 'Nepal',
            },
          ],
        }),
      );
      expectStatus(response, 201);
      expect(response.body.data.travelCompanies).toHaveLength(1);
      expect(response.body.data.customTravelAgencies).toEqual([
        {
          name: 'Kathmandu Base Adventures',
          contactEmail: 'bookings@kathmandubase.example.com',
          contactPhone: '+977 1 4412345',
          country: 'Nepal',
        },
      ]);
    });

    it('when a travel agency lists itself in travelCompanyIds, then it is counted once', async () => {
      const response = await createOrders(
        lowTrek({
          travelCompanyIds: [agency.companyId],
          customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }],
        }),
      );
      expectStatus(response, 201);
      expect(response.body.data.travelCompanies).toEqual([{ companyId: agency.companyId, name: agency.companyName }]);
    });

    it('when a travel agency lists a second registered agency and a custom one, then it is a 400', async () => {
      const other = await newPartner(server, client);
      await expectRejected(
        lowTrek({ travelCompanyIds: [other.companyId], customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }] }),
        400,
      );
    });

    it('when another registered agency is listed, then it is on the order and may read it', async () => {
      const other = await newPartner(server, client);
      const response = await createOrders(lowTrek({ travelCompanyIds: [other.companyId] }));
      expectStatus(response, 201);
      expect(response.body.data.travelCompanies.map((company: { companyId: string }) => company.companyId)).toEqual([
        agency.companyId,
        other.companyId,
      ]);
      expectStatus(await getOrder(response.body.data.orderRef, other), 200);
    });

    it('when a listed travel company is unknown, or a sales company, then it is a 404 and nothing is written', async () => {
      const sales = await newPartner(server, client, { type: CompanyType.SalesCompany });
      for (const companyId of ['00000000-0000-4000-8000-000000000000', sales.companyId]) {
        const response = await expectRejected(lowTrek({ travelCompanyIds: [companyId] }), 404);
        expect(response.body.message).toContain(companyId);
      }
    });

    it('when a sales company orders, then commission resolves to it and no agency is injected', async () => {
      const sales = await newPartner(server, client, { type: CompanyType.SalesCompany, commissionPercent: '5.00' });
      const salesTraveller = await newTraveller(server, sales.companyId);
      const response = await createOrders(
        lowTrek({
          touristId: salesTraveller,
          customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }, { name: 'Pokhara Lakeside Treks' }],
        }),
        sales,
      );
      expectStatus(response, 201);
      expect(response.body.data).toMatchObject({ commissionCompanyId: sales.companyId, travelCompanies: [] });
      expect(response.body.data.customTravelAgencies).toHaveLength(2);
    });
  });

  describe('records the order names', () => {
    it("when the traveller is unknown or another company's, then it is a 404 and nothing is written", async () => {
      const other = await newPartner(server, client);
      const strangersTraveller = await newTraveller(server, other.companyId);
      for (const id of ['00000000-0000-4000-8000-000000000000', strangersTraveller]) {
        const response = await expectRejected(lowTrek({ touristId: id }), 404);
        expect(response.body.message).toContain(id);
      }
    });

    it.each([
      ['an unknown package', { ctgId: '00000000-0000-4000-8000-000000000000' }],
      ['an inactive package', { ctgId: CTGS.monsoonInactive }],
      ['an unknown route', { customRouteName: undefined, routeId: '00000000-0000-4000-8000-000000000000' }],
      ['an inactive route', { customRouteName: undefined, routeId: ROUTES.narPhuInactive }],
      ['an unknown quote', { quoteId: '00000000-0000-4000-8000-000000000000' }],
      ['an unknown order group', { orderGroupId: '00000000-0000-4000-8000-000000000000' }],
    ])('when the order names %s, then it is a 404 and nothing is written', async (_name, change) => {
      await expectRejected(JSON.parse(JSON.stringify(lowTrek(change))), 404);
    });

    it('when the quote belongs to another company, then it is a 404 and the quote stays ACTIVE', async () => {
      const other = await newPartner(server, client);
      const quote = await everestQuote(client, other);
      await expectRejected(orderFromQuote(quote, touristId), 404, [quote.quoteId]);
      expect((await writtenState(server, other.companyId, [quote.quoteId])).quoteStatuses).toEqual(['ACTIVE']);
    });
  });

  describe('the quote must agree with the order', () => {
    it.each([
      ['another package', { ctgId: CTGS.standard5500 }, 'ctgId'],
      ['another route', { routeId: ROUTES.annapurnaCircuit }, 'routeId'],
      ['a custom route instead of the quoted one', { routeId: undefined, customRouteName: 'Somewhere' }, 'routeId'],
      ['another departure date', { departureDate: addDays(departure, 1) }, 'departureDate'],
    ])(
      'when the order names %s than its quote, then it is a 400 and the quote stays ACTIVE',
      async (_name, change, field) => {
        const quote = await everestQuote(client, agency);
        const response = await expectRejected(
          JSON.parse(JSON.stringify(orderFromQuote(quote, touristId, change))),
          400,
          [quote.quoteId],
        );
        expect(response.body.details.fieldErrors).toHaveProperty([field]);
        expect((await writtenState(server, agency.companyId, [quote.quoteId])).quoteStatuses).toEqual(['ACTIVE']);
      },
    );

    it('when the quote has expired, then it is a 400 on quoteId', async () => {
      const quote = await everestQuote(client, agency);
      const em = server.orm.em.fork();
      const stored = await em.findOneOrFail(Quote, quote.quoteId);
      stored.expiresAt = new Date(Date.now() - 1000);
      await em.flush();
      const response = await expectRejected(orderFromQuote(quote, touristId), 400, [quote.quoteId]);
      expect(response.body.details.fieldErrors.quoteId).toContain('expired');
    });
  });

  describe('the package must fit the trip and the traveller', () => {
    it('when the traveller is older than the package allows on the departure date, then it is a 400 on touristId', async () => {
      // 76 on the day before departure: outside the 1 to 75 band of the standard package
      const senior = await newTraveller(server, agency.companyId, {
        dateOfBirth: addDays(departure, -1).replace(/^\d{4}/, (year) => String(Number(year) - 76)),
      });
      const response = await expectRejected(lowTrek({ touristId: senior }), 400);
      expect(response.body.details.fieldErrors.touristId).toContain('76');
    });

    it('when the traveller turns 76 only after departure, then the standard package still covers them', async () => {
      const traveller = await newTraveller(server, agency.companyId, {
        dateOfBirth: addDays(departure, 1).replace(/^\d{4}/, (year) => String(Number(year) - 76)),
      });
      expectStatus(await createOrders(lowTrek({ touristId: traveller })), 201);
    });

    it('when a special-route package is ordered for another route without a quote, then it is a 400 on ctgId', async () => {
      const response = await expectRejected(
        lowTrek({ ctgId: CTGS.everestBaseCampSpecial, customRouteName: undefined, routeId: ROUTES.annapurnaCircuit }),
        400,
      );
      expect(response.body.details.fieldErrors).toHaveProperty(['ctgId']);
    });

    it('when the route climbs above the package altitude band without a quote, then it is a 400 on ctgId', async () => {
      const response = await expectRejected(
        lowTrek({ customRouteName: undefined, routeId: ROUTES.everestBaseCamp }),
        400,
      );
      expect(response.body.details.fieldErrors.ctgId).toContain('5364');
    });
  });

  it('when settlement is CASH, then the order stays PENDING with settlementType CASH', async () => {
    const response = await createOrders(lowTrek({ settlementType: 'CASH' }));
    expect(response.body.data).toMatchObject({ status: 'PENDING', settlementType: 'CASH' });
  });

  it('when free-form fields are sent, then they are stored and returned unchanged', async () => {
    const extras = {
      addedServices: [{ name: 'Kathmandu airport pickup', price: 1500, quantity: 1 }],
      addedDevices: [{ name: 'Rental down jacket', price: 250.5, quantity: 2 }],
      referralCode: 'HT-AUTUMN26',
      extraFields: { partnerBookingId: 'HT-2026-0917-044', tags: ['autumn', 'ebc'], nested: { pax: 1 } },
      dispatchInfo: { pickupPoint: 'Thamel office', pickupDate: addDays(departure, -2) },
    };
    const created = await createOrders(lowTrek(extras));
    expectStatus(created, 201);
    expect(created.body.data.pricing).toMatchObject({ addedItemsPrice: 2001, subtotal: 6501, totalAmount: 6501 });
    const read = await getOrder(created.body.data.orderRef);
    expect(read.body.data).toMatchObject(extras);
  });

  it('when a promo code is sent, then the order is still created and promoApplyResult says it was not applied', async () => {
    const response = await createOrders(lowTrek({ promoCode: 'SUMMIT10' }));
    expectStatus(response, 201);
    expect(response.body.data.promoApplyResult).toMatchObject({ promoCode: 'SUMMIT10', applied: false });
    expect(response.body.data.promoApplyResult.reason).toEqual(expect.any(String));
    expect(response.body.data.pricing.totalDiscount).toBe(0);
  });

  it('when orderGroupId names a group of the caller, then the order joins that group', async () => {
    const group = await createOrders([lowTrek()]);
    const response = await createOrders(lowTrek({ orderGroupId: group.body.data.groupId }));
    expectStatus(response, 201);
    expect(response.body.data.groupRef).toBe(group.body.data.groupRef);
  });

  it("when orderGroupId names another company's group, then it is a 404", async () => {
    const other = await newPartner(server, client);
    const othersGroup = await createOrders(
      [lowTrek({ touristId: await newTraveller(server, other.companyId) })],
      other,
    );
    await expectRejected(lowTrek({ orderGroupId: othersGroup.body.data.groupId }), 404);
  });
});

describe('GET /orders/{orderRef}', () => {
  let placed: WireJson;
  beforeAll(async () => {
    placed = (await createOrders(lowTrek({ referralCode: 'READ-ME' }))).body.data;
  });

  it.each([
    ['order reference', () => placed.orderRef],
    ['order number', () => placed.orderNumber],
    ['order UUID', () => placed.orderId],
    ['order UUID in capitals', () => placed.orderId.toUpperCase()],
  ])('when read by its %s, then the full order detail is returned', async (_name, identifier) => {
    const response = await getOrder(identifier());
    expectStatus(response, 200);
    // The creation answer, plus what only the detail carries: the caller's commission lines (none before payment).
    expect(response.body.data).toEqual({ ...placed, commissionLines: [] });
  });

  it('when the order belongs to another company, then it is a 403', async () => {
    const other = await newPartner(server, client);
    const response = await getOrder(placed.orderRef, other);
    expectStatus(response, 403);
  });

  it.each([
    ['an unknown order reference', 'ORD-2026-999999999'],
    ['an unknown order UUID', '00000000-0000-4000-8000-000000000000'],
    ['something that is no order identifier', 'not-an-order'],
  ])('when asked for %s, then it is a 404', async (_name, identifier) => {
    expectStatus(await getOrder(identifier), 404);
  });

  it('when the caller sends no token, then it is a 401', async () => {
    const response = await client.op('getOrder', 'GET', `${ORDERS}/${placed.orderRef}`);
    expectStatus(response, 401);
  });

  it('stores the order under the company that placed it', async () => {
    const stored = await server.orm.em.fork().findOneOrFail(Order, placed.orderId, { populate: ['company'] });
    expect(stored.company.id).toBe(agency.companyId);
  });
});
