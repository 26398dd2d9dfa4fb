import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { randomUUID } from 'node:crypto';
import { Company } from '../../src/modules/partners/entities/company';
import { Quote } from '../../src/modules/catalogue/entities/quote';
import { createQuote } from '../../src/modules/catalogue/quoting';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const QUOTE = '/api/external/v1/reference/quote';
const CTG_LIST = '/api/external/v1/reference/ctgs';
const ROUTE_LIST = '/api/external/v1/reference/routes';

const { server, client } = useTestServer();
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const start = addDays(kathmanduToday(), 30);
const quote = (body: Record<string, unknown>) =>
  client.op('createQuote', 'POST', QUOTE, body, { token: partner.token });
const everestTrip = {
  nationality: 'German',
  ages: [34],
  startDate: start,
  duration: 16,
  routeId: ROUTES.everestBaseCamp,
};

describe('POST /reference/quote', () => {
  it('prices an Everest Base Camp trip with the special-route package, devices included', async () => {
    const response = await quote(everestTrip);
    expectStatus(response, 200);
    const data = response.body.data;
    expect(data).toMatchObject({
      quoteStatus: 'ACTIVE',
      ctgId: CTGS.everestBaseCampSpecial,
      routeId: ROUTES.everestBaseCamp,
      routeName: 'Everest Base Camp Trek',
      maxAltitude: 5364,
      numberOfPersons: 1,
      ages: [34],
      nationality: 'German',
      startDate: start,
      endDate: addDays(start, 15),
      durationDays: 16,
      currency: 'NPR',
    });
    // 15,400 for 14 base days + 2 extra days at 900, plus (110 + 40) a day for 16 days of devices
    expect(data.totalAmount).toBe(19600);
    expect(data.includedDevices.map((d: { priceForDuration: number }) => d.priceForDuration)).toEqual([1760, 640]);
    expect(data.coverage.length).toBeGreaterThan(0);
  });

  it('persists the quote under the caller company', async () => {
    const response = await quote(everestTrip);
    const data = response.body.data;
    const stored = await server.orm.em.fork().findOneOrFail(Quote, data.quoteId, { populate: ['company'] });
    expect(stored.company.id).toBe(partner.companyId);
    expect(stored.totalAmount).toBe(1960000);
    expect(stored).toMatchObject({
      status: data.quoteStatus,
      startDate: data.startDate,
      endDate: data.endDate,
      durationDays: data.durationDays,
      age: 34,
    });
    expect(stored).toMatchObject({
      nationality: everestTrip.nationality,
      maxAltitude: data.maxAltitude,
      currency: data.currency,
    });
    const devicesTotal = stored.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
    expect(stored.ctgPriceForDuration + devicesTotal).toBe(stored.totalAmount);
    expect(stored.ctg.id).toBe(data.ctgId);
    expect(stored.route?.id).toBe(data.routeId);
    expect(stored.createdAt.toISOString()).toBe(data.createdAt);
    expect(stored.expiresAt.toISOString()).toBe(data.validUntil);
    expect(stored.coverage.map((line) => line.code)).toEqual(data.coverage.map((line: { code: string }) => line.code));
    expect(stored.includedDevices.map((device) => device.priceForDuration / 100)).toEqual(
      data.includedDevices.map((device: { priceForDuration: number }) => device.priceForDuration),
    );
  });

  it('when many quotes arrive at once (one multi-row INSERT), then each is stored with its own columns before it is answered', async () => {
    const trips = Array.from({ length: 24 }, (_, i) => ({
      nationality: `Nation ${i}`,
      ages: [20 + i],
      startDate: addDays(start, i),
      duration: 5 + i,
      maxAltitude: 3000 + i,
    }));
    const responses = await Promise.all(trips.map((trip) => quote(trip)));
    const em = server.orm.em.fork();
    for (const [i, response] of responses.entries()) {
      expectStatus(response, 200);
      const data = response.body.data;
      const stored = await em.findOneOrFail(Quote, data.quoteId, { populate: ['company'] });
      expect(stored).toMatchObject({
        nationality: `Nation ${i}`,
        age: 20 + i,
        maxAltitude: 3000 + i,
        startDate: data.startDate,
        durationDays: 5 + i,
      });
      expect(stored.company.id).toBe(partner.companyId);
      expect(stored.route).toBeNull();
      expect(stored.totalAmount).toBe(Math.round(data.totalAmount * 100));
      expect(stored.includedDevices.map((device) => device.priceForDuration / 100)).toEqual(
        data.includedDevices.map((device: { priceForDuration: number }) => device.priceForDuration),
      );
      expect(stored.createdAt.toISOString()).toBe(data.createdAt);
    }
  });

  it('when one quote of a batch cannot be stored, then only that one fails', async () => {
    const settings = { currency: 'NPR', quoteTtlDays: 7 };
    const caller = await server.orm.em.fork().findOneOrFail(Company, partner.companyId);
    const principal = {
      companyId: caller.id,
      companyType: caller.type,
      companyName: caller.name,
      commissionPercent: caller.commissionPercent,
      credentialId: randomUUID(),
    };
    const trip = { nationality: 'German', ages: [34], startDate: start, duration: 10, maxAltitude: 3000 };
    // A company that does not exist breaks the foreign key of its row only.
    const results = await Promise.allSettled(
      [principal, { ...principal, companyId: randomUUID() }, principal].map((who) =>
        createQuote(server.orm.em.fork(), server.catalogue, who, trip, settings),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('counts both ends of an endDate window', async () => {
    const response = await quote({
      nationality: 'Nepali',
      ages: [40],
      startDate: start,
      endDate: addDays(start, 2),
      maxAltitude: 2500,
    });
    expectStatus(response, 200);
    expect(response.body.data.durationDays).toBe(3);
    expect(response.body.data.ctgId).toBe(CTGS.standard3000);
    expect(response.body.data.routeId).toBeNull();
  });

  it('recommends the senior package for an 80-year-old at 4,000 m', async () => {
    const response = await quote({
      nationality: 'Japanese',
      ages: [80],
      startDate: start,
      duration: 10,
      maxAltitude: 4000,
    });
    expect(response.body.data.ctgId).toBe(CTGS.senior4500);
  });

  it.each([
    ['more than one age', { ages: [30, 31] }, 'ages'],
    ['an age of 0', { ages: [0] }, 'ages[0]'],
    ['an age above 120', { ages: [121] }, 'ages[0]'],
    ['numberOfPersons other than 1', { numberOfPersons: 2 }, 'numberOfPersons'],
    ['a blank nationality', { nationality: '   ' }, 'nationality'],
    ['a nationality over 100 characters', { nationality: 'x'.repeat(101) }, 'nationality'],
    ['a malformed startDate', { startDate: '2026-13-45' }, 'startDate'],
    ['a routeId that is not a UUID', { routeId: 'everest' }, 'routeId'],
    // 9999-12-20 plus the trip overflowed PostgreSQL's date arithmetic: a 500 before trip dates were bounded.
    ['a startDate past 2099 (9999-12-20)', { startDate: '9999-12-20' }, 'startDate'],
    ['an endDate past 2099', { duration: undefined, endDate: '2100-01-01' }, 'endDate'],
    ['a nationality with a line break', { nationality: 'German\nstatus PAID' }, 'nationality'],
    ['a nationality with an escape sequence', { nationality: 'German\u001b[2J' }, 'nationality'],
  ])('rejects %s with a field error', async (_name, change, field) => {
    const response = await quote({ ...everestTrip, ...change });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toHaveProperty([field]);
  });

  it.each([
    ['neither endDate nor duration', { duration: undefined }, 'endDate'],
    ['both endDate and duration', { endDate: addDays(start, 3) }, 'duration'],
    ['neither routeId nor maxAltitude', { routeId: undefined }, 'maxAltitude'],
    ['both routeId and maxAltitude', { maxAltitude: 5000 }, 'maxAltitude'],
    ['a maxAltitude above 9000', { routeId: undefined, maxAltitude: 9001 }, 'maxAltitude'],
    ['a start date in the past', { startDate: addDays(kathmanduToday(), -1) }, 'startDate'],
  ])('rejects %s with a field error', async (_name, change, field) => {
    const response = await quote(JSON.parse(JSON.stringify({ ...everestTrip, ...change })));
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toHaveProperty([field]);
  });

  it.each([
    ['neither endDate nor duration', { duration: undefined }, { endDate: 'endDate or duration is required' }],
    [
      'both endDate and duration',
      { endDate: addDays(start, 3) },
      { duration: 'send either endDate or duration, not both' },
    ],
    [
      'neither routeId nor maxAltitude',
      { routeId: undefined },
      { maxAltitude: 'maxAltitude is required when routeId is omitted' },
    ],
    [
      'both routeId and maxAltitude',
      { maxAltitude: 5000 },
      { maxAltitude: 'send either routeId or maxAltitude, not both' },
    ],
  ])(
    'rejects %s (a rule the schema states) with the field error the server has always given',
    async (_name, change, fieldErrors) => {
      const response = await quote(JSON.parse(JSON.stringify({ ...everestTrip, ...change })));
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors).toEqual(fieldErrors);
    },
  );

  it('rejects an endDate before the startDate', async () => {
    const response = await quote({ ...everestTrip, duration: undefined, endDate: addDays(start, -1) });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors.endDate).toBeDefined();
  });

  it('says why when no package covers the traveller', async () => {
    const response = await quote({ ...everestTrip, routeId: ROUTES.everestSouthCol, ages: [90] });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors.ages).toContain('8849');
  });

  it('answers 404 for an unknown routeId and for an inactive route', async () => {
    for (const routeId of ['00000000-0000-4000-8000-000000000000', ROUTES.narPhuInactive]) {
      const response = await quote({ ...everestTrip, routeId });
      expectStatus(response, 404);
    }
  });
});

describe('GET /reference/routes', () => {
  const routes = (query: Record<string, string | number> = {}) =>
    client.op('listRoutes', 'GET', ROUTE_LIST, undefined, { token: partner.token, query });

  it('lists active routes only, sorted by name, in its own pagination envelope', async () => {
    const response = await routes();
    expectStatus(response, 200);
    const names = response.body.data.content.map((route: { name: string }) => route.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).not.toContain('Nar Phu Valley Trek');
    expect(response.body.data.pagination).toEqual({ page: 0, size: 20, totalItems: 15, totalPages: 1, hasNext: false });
  });

  it('filters by region, trekName, routeType, routeCategory and search', async () => {
    expect((await routes({ region: 'annapurna' })).body.data.content).toHaveLength(3);
    expect((await routes({ trekName: 'base camp' })).body.data.content.length).toBeGreaterThanOrEqual(4);
    expect(
      (await routes({ routeType: 'PEAK_CLIMBING' })).body.data.content.map((r: { name: string }) => r.name),
    ).toEqual(['Island Peak Climb', 'Mera Peak Climb']);
    expect((await routes({ routeCategory: 'RESTRICTED_AREA' })).body.data.content.length).toBeGreaterThanOrEqual(2);
    expect((await routes({ search: 'mustang' })).body.data.content[0].name).toBe('Upper Mustang Trek');
  });

  it('pages and sorts', async () => {
    const page = await routes({ page: 1, size: 5, sortBy: 'maxAltitude', sortDir: 'desc' });
    expect(page.body.data.pagination).toMatchObject({ page: 1, size: 5, totalItems: 15, totalPages: 3, hasNext: true });
    const altitudes = page.body.data.content.map((r: { maxAltitude: number }) => r.maxAltitude);
    expect(altitudes).toEqual([...altitudes].sort((a, b) => b - a));
  });

  it('clamps a size above 100 to 100 instead of rejecting it', async () => {
    expect((await routes({ size: 500 })).body.data.pagination.size).toBe(100);
  });

  it('rejects an unknown sortBy with a field error', async () => {
    const response = await routes({ sortBy: 'password' });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors.sortBy).toBeDefined();
  });
});

describe('GET /reference/ctgs', () => {
  const ctgs = (query: Record<string, string | number> = {}) =>
    client.op('listCtgs', 'GET', CTG_LIST, undefined, { token: partner.token, query });

  it('lists the active catalogue in displayOrder with Spring-style page metadata', async () => {
    const response = await ctgs();
    expectStatus(response, 200);
    const data = response.body.data;
    expect(data).toMatchObject({ page: 0, size: 20, totalElements: 8, totalPages: 1, first: true, last: true });
    expect(data.content[0].ctgId).toBe(CTGS.everestBaseCampSpecial);
    expect(data.content.map((c: { ctgId: string }) => c.ctgId)).not.toContain(CTGS.monsoonInactive);
  });

  it('prices each package for its base duration', async () => {
    const standard = (await ctgs({ search: 'TRK-STD-5500' })).body.data.content[0];
    // 16,800 base + (120 + 40) a day for 14 days of devices
    expect(standard).toMatchObject({
      baseCtgPrice: 16800,
      ctgPriceForDuration: 16800,
      includedDevicesPrice: 2240,
      totalPrice: 19040,
    });
  });

  it('filters by altitude, age and duration bands and by product type', async () => {
    const extreme = (await ctgs({ altitudeBand: 'EXTREME' })).body.data.content;
    expect(extreme.every((c: { maxAltitude: number }) => c.maxAltitude > 6000)).toBe(true);
    const seniors = (await ctgs({ ageBand: 'SENIOR' })).body.data.content;
    expect(seniors.every((c: { maxAge: number }) => c.maxAge > 60)).toBe(true);
    const long = (await ctgs({ durationBand: 'LONG' })).body.data.content;
    expect(long.map((c: { baseDurationDays: number }) => c.baseDurationDays)).toEqual([45]);
    const special = (await ctgs({ productType: 'SPECIAL_ROUTE' })).body.data.content;
    expect(special.map((c: { routeId: string }) => c.routeId)).toEqual([ROUTES.everestBaseCamp]);
  });

  it('rejects an unknown band value with a field error', async () => {
    const response = await ctgs({ altitudeBand: 'STRATOSPHERE' });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors.altitudeBand).toBeDefined();
  });
});
