import type { ChildProcess } from 'node:child_process';
import { Order } from '../../src/modules/orders/entities/order';
import { buildServer, forkServer } from '../support/built-server';
import { at } from '../support/elements';
import { ApiClient, type WireJson } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { createGroup, newCode, newSalesCompany, orderPromoPath, usedCount } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';

/** A built server in its own process on the run's database. */
async function forkPromoServer(): Promise<{ child: ChildProcess; client: ApiClient }> {
  const { child, url } = await forkServer('main', { LOG_LEVEL: 'silent' });
  return { child, client: new ApiClient(url) };
}

describe('promo usage limit under parallel applies from two server processes', () => {
  const { server, client } = useTestServer();
  let agency: TestPartner;
  const forked: ChildProcess[] = [];
  let processes: ApiClient[];

  beforeAll(async () => {
    buildServer();
    agency = await newPartner(server, client);
    // one after the other: each start migrates and refreshes the seed catalogue
    const first = await forkPromoServer();
    forked.push(first.child);
    const second = await forkPromoServer();
    forked.push(second.child);
    processes = [first.client, second.client];
  }, 180_000);

  afterAll(async () => {
    for (const child of forked) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  it('when 50 orders race for a code limited to 5 uses, then exactly 5 get it and its count ends at exactly 5', async () => {
    const touristId = await newTraveller(server, agency.companyId);
    const group = await createGroup(client, agency, touristId, 50);
    const code = await newCode(server, await newSalesCompany(server), { usageLimit: 5 });

    const responses = await Promise.all(
      group.orders.map((order: WireJson, index: number) =>
        at(processes, index % 2, 'the processes').op(
          'applyOrderPromo',
          'POST',
          orderPromoPath(order.orderRef),
          { promoCode: code },
          { token: agency.token },
        ),
      ),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 400)).toHaveLength(45);
    expect(
      responses
        .filter((response) => response.status === 400)
        .every((response) => response.body.message === 'Invalid promo code'),
    ).toBe(true);
    expect(await usedCount(server, code)).toBe(5);
    const holders = await server.orm.em
      .fork()
      .count(Order, { group: { groupRef: group.groupRef }, companyPromoCode: { code } });
    expect(holders).toBe(5);
  }, 120_000);
});
