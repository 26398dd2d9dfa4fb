import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Test clocks a CI job owns (decision record 0090): `Sandbox-Clock: <name>` on a request makes
 * it read and set that clock only, so two jobs of one partner running at once never move each
 * other's dates; without the header the company's own clock holds, as before. client.op checks
 * every answer against the spec's schema for its status.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
const { server, client } = useTestServer();
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Two Jobs Treks Pvt. Ltd.' });
});

const on = (clock: string | undefined): { token: string; headers: Record<string, string> } => ({
  token: agency.token,
  headers: clock === undefined ? {} : { 'sandbox-clock': clock },
});
const setClock = (clock: string | undefined, today: string) =>
  client.op('setSandboxClock', 'PUT', CLOCK, { today }, on(clock));
const readClock = (clock: string | undefined) => client.op('getSandboxClock', 'GET', CLOCK, undefined, on(clock));

describe('the Sandbox-Clock header', () => {
  it("when two jobs of one company each set the clock they name, then each job's requests run on its own date and the company's clock is untouched", async () => {
    const jobA = addDays(kathmanduToday(), 20);
    const jobB = addDays(kathmanduToday(), 40);
    expectStatus(await setClock('ci-job-a', jobA), 200);
    expectStatus(await setClock('ci-job-b', jobB), 200);
    expect((await readClock('ci-job-a')).body.data.today).toBe(jobA);
    expect((await readClock('ci-job-b')).body.data.today).toBe(jobB);
    const company = await readClock(undefined);
    expect(company.body.data.today).toBeNull();
    expect(company.headers.get('sandbox-today')).toBeNull();
    // Any operation of a job runs on its clock: the business rules of that request read it.
    const order = await placeOrder(server, client, agency);
    const read = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, on('ci-job-b'));
    expectStatus(read, 200);
    expect(read.headers.get('sandbox-today')).toBe(jobB);
    expect(
      (await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, on(undefined))).headers.get(
        'sandbox-today',
      ),
    ).toBeNull();
  });

  it("when a job removes its clock, then only that job's clock goes back to the real date", async () => {
    expectStatus(await setClock(undefined, addDays(kathmanduToday(), 5)), 200);
    expectStatus(await setClock('ci-job-c', addDays(kathmanduToday(), 9)), 200);
    const removed = await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, on('ci-job-c'));
    expectStatus(removed, 200);
    expect((await readClock('ci-job-c')).body.data.today).toBeNull();
    expect((await readClock(undefined)).body.data.today).toBe(addDays(kathmanduToday(), 5));
    expectStatus(await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, on(undefined)), 200);
  });

  it('when the header is no clock name, then 400 naming Sandbox-Clock, on the clock operations and on any other', async () => {
    const bad = await readClock('no spaces allowed');
    expectStatus(bad, 400);
    expect(Object.keys(bad.body.details.fieldErrors)).toEqual(['Sandbox-Clock']);
    const other = await client.op('listOrders', 'GET', ORDERS, undefined, on('-leading-dash'));
    expectStatus(other, 400);
    expect(Object.keys(other.body.details.fieldErrors)).toEqual(['Sandbox-Clock']);
  });
});
