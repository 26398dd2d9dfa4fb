import { Order, OrderStatus } from '../../src/modules/orders/entities/order';
import { newPartner, type TestPartner } from '../support/partners';
import {
  createGroup,
  groupPromoPath,
  newCode,
  orderPromoPath,
  promoParties,
  usedCount,
  type PromoOwner,
} from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import type { WireJson } from '../support/http-client';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner, touristId: string, companyA: PromoOwner, companyB: PromoOwner, agentX: PromoOwner;
beforeAll(async () => {
  ({ agency, touristId, companyA, companyB, agentX } = await promoParties(server, client));
});

const previewGroup = (groupRef: string, promoCode: unknown, partner = agency) =>
  client.op(
    'previewGroupPromo',
    'POST',
    `${groupPromoPath(groupRef)}/preview`,
    { promoCode },
    { token: partner.token },
  );
const applyGroup = (groupRef: string, promoCode: unknown, partner = agency) =>
  client.op('applyGroupPromo', 'POST', groupPromoPath(groupRef), { promoCode }, { token: partner.token });
const removeGroup = (groupRef: string, code?: string, partner = agency) =>
  client.op('removeGroupPromo', 'DELETE', groupPromoPath(groupRef), undefined, {
    token: partner.token,
    ...(code === undefined ? {} : { query: { code } }),
  });
const applyOne = (orderRef: string, promoCode: string) =>
  client.op('applyOrderPromo', 'POST', orderPromoPath(orderRef), { promoCode }, { token: agency.token });

const markPaid = (orderRef: string) =>
  server.orm.em.fork().nativeUpdate(Order, { orderRef }, { status: OrderStatus.Paid, paidAt: new Date() });
const stored = async (orderRefs: string[]) =>
  (
    await server.orm.em
      .fork()
      .find(Order, { orderRef: { $in: orderRefs } }, { populate: ['companyPromoCode'], orderBy: { orderRef: 'asc' } })
  ).map((order) => ({
    orderRef: order.orderRef,
    code: order.companyPromoCode?.code ?? null,
    total: order.totalAmount,
    version: order.version,
  }));

/**
 * A group of three 4,500.00 orders: the first already bound to company B by B's code, the
 * second paid, the third untouched.
 */
async function mixedGroup() {
  const group = await createGroup(client, agency, touristId, 3);
  const [boundToB, paid, fresh] = group.orders.map((order: WireJson) => order.orderRef as string);
  const codeOfB = await newCode(server, companyB);
  expectStatus(await applyOne(boundToB, codeOfB), 200);
  await markPaid(paid);
  return { groupRef: group.groupRef as string, boundToB, paid, fresh, codeOfB };
}

describe('POST /orders/groups/{groupRef}/promo', () => {
  it('when some orders can take the code and some cannot, then each entry says whether it changed and why not', async () => {
    const { groupRef, boundToB, paid, fresh, codeOfB } = await mixedGroup();
    const code = await newCode(server, companyA);
    const response = await applyGroup(groupRef, code);
    expectStatus(response, 200);
    const entries = response.body.data.orders;
    expect(entries.map((entry: WireJson) => [entry.orderRef, entry.changed, entry.reason])).toEqual([
      [boundToB, false, 'INVALID_FOR_ORDER'],
      [paid, false, 'ORDER_NOT_PENDING'],
      [fresh, true, null],
    ]);
    expect(entries[0]).toMatchObject({
      companyPromoCode: codeOfB,
      binding: { type: 'COMPANY', ownerId: companyB.id },
      totalAfter: 4050,
    });
    expect(entries[2]).toMatchObject({
      companyPromoCode: code,
      binding: { type: 'COMPANY', ownerId: companyA.id },
      totalAfter: 4050,
    });
    expect(response.body.data.totals).toEqual({
      totalBefore: 13500,
      discountAmount: 900,
      totalAfter: 12600,
      currency: 'NPR',
      changedCount: 1,
    });
    expect(await usedCount(server, code)).toBe(1);
  });

  it('when applied again, then orders that already carry the code report ALREADY_APPLIED and take no further use', async () => {
    const group = await createGroup(client, agency, touristId, 2);
    const code = await newCode(server, agentX, { amount: 250 });
    await applyGroup(group.groupRef, code);
    const again = await applyGroup(group.groupRef, code);
    expect(again.body.data.orders.map((entry: WireJson) => [entry.changed, entry.reason])).toEqual([
      [false, 'ALREADY_APPLIED'],
      [false, 'ALREADY_APPLIED'],
    ]);
    expect(again.body.data.totals).toMatchObject({ discountAmount: 500, changedCount: 0 });
    expect(await usedCount(server, code)).toBe(2);
  });

  it('when the code runs out part-way, then the orders after its last use report INVALID_FOR_ORDER', async () => {
    const group = await createGroup(client, agency, touristId, 3);
    const code = await newCode(server, companyA, { usageLimit: 2 });
    const response = await applyGroup(group.groupRef, code);
    expect(response.body.data.orders.map((entry: WireJson) => entry.reason)).toEqual([null, null, 'INVALID_FOR_ORDER']);
    expect(await usedCount(server, code)).toBe(2);
  });

  it('when the code is unusable in itself, then the answer is the promo 400 and no order changes', async () => {
    const { groupRef, boundToB, paid, fresh } = await mixedGroup();
    const before = await stored([boundToB, paid, fresh]);
    const exhausted = await newCode(server, companyA, { usageLimit: 1 });
    await applyOne((await createGroup(client, agency, touristId, 1)).orders[0].orderRef, exhausted);
    for (const code of ['NO-SUCH-CODE', exhausted, await newCode(server, companyA, { active: false }), ' ']) {
      const response = await applyGroup(groupRef, code);
      expectStatus(response, 400);
      expect(response.body.message).toBe('Invalid promo code');
    }
    expect(await stored([boundToB, paid, fresh])).toEqual(before);
  });

  it("answers 403 for another company's group and 404 for no group", async () => {
    const group = await createGroup(client, agency, touristId, 1);
    const other = await newPartner(server, client);
    const code = await newCode(server, companyA);
    expectStatus(await applyGroup(group.groupRef, code, other), 403);
    expectStatus(await previewGroup(group.groupRef, code, other), 403);
    expectStatus(await removeGroup(group.groupRef, undefined, other), 403);
    expectStatus(await applyGroup('GRP-2026-999999', code), 404);
    expect(await usedCount(server, code)).toBe(0);
  });
});

describe('POST /orders/groups/{groupRef}/promo/preview', () => {
  it('returns the projected entries and changes neither the orders nor the use count', async () => {
    const { groupRef, boundToB, paid, fresh } = await mixedGroup();
    const code = await newCode(server, companyA, { usageLimit: 5 });
    const before = await stored([boundToB, paid, fresh]);
    const response = await previewGroup(groupRef, code);
    expectStatus(response, 200);
    expect(response.body.data.orders.map((entry: WireJson) => [entry.changed, entry.reason])).toEqual([
      [false, 'INVALID_FOR_ORDER'],
      [false, 'ORDER_NOT_PENDING'],
      [true, null],
    ]);
    expect(response.body.data.orders[2]).toMatchObject({ companyPromoCode: code, totalAfter: 4050 });
    expect(await stored([boundToB, paid, fresh])).toEqual(before);
    expect(await usedCount(server, code)).toBe(0);
  });
});

describe('DELETE /orders/groups/{groupRef}/promo', () => {
  it('removes the code where it is, reports NOT_APPLIED and ORDER_NOT_PENDING elsewhere, and releases the uses', async () => {
    const { groupRef, boundToB, paid, fresh } = await mixedGroup();
    const code = await newCode(server, companyA);
    await applyGroup(groupRef, code);
    const response = await removeGroup(groupRef, code);
    expectStatus(response, 200);
    expect(response.body.data.orders.map((entry: WireJson) => [entry.orderRef, entry.changed, entry.reason])).toEqual([
      [boundToB, false, 'NOT_APPLIED'],
      [paid, false, 'ORDER_NOT_PENDING'],
      [fresh, true, null],
    ]);
    expect(response.body.data.orders[2]).toMatchObject({
      companyPromoCode: null,
      binding: { type: 'NONE' },
      totalAfter: 4500,
    });
    expect(await usedCount(server, code)).toBe(0);
  });

  it('without a code, clears both slots of every pending order', async () => {
    const group = await createGroup(client, agency, touristId, 2);
    const companyCode = await newCode(server, companyA);
    const agentCode = await newCode(server, agentX, { amount: 100 });
    await applyGroup(group.groupRef, companyCode);
    await applyGroup(group.groupRef, agentCode);
    const response = await removeGroup(group.groupRef);
    expect(response.body.data.totals).toEqual({
      totalBefore: 9000,
      discountAmount: 0,
      totalAfter: 9000,
      currency: 'NPR',
      changedCount: 2,
    });
    expect([await usedCount(server, companyCode), await usedCount(server, agentCode)]).toEqual([0, 0]);
  });
});
