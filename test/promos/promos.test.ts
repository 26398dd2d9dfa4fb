import { DEMO_PROMO_CODES } from '../../src/modules/promos/demo-promo-codes';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { Order, OrderStatus } from '../../src/modules/orders/entities/order';
import { PromoCode } from '../../src/modules/promos/entities/promo-code';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  createOrder,
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
let agency: TestPartner,
  touristId: string,
  companyA: PromoOwner,
  companyB: PromoOwner,
  agentX: PromoOwner,
  agentY: PromoOwner;
beforeAll(async () => {
  ({ agency, touristId, companyA, companyB, agentX, agentY } = await promoParties(server, client, {
    agency: 'Himalayan Trails Pvt. Ltd.',
    companies: ['Summit Sales Nepal Pvt. Ltd.', 'Everest Gateway Sales Pvt. Ltd.'],
    agents: ['Pemba Sherpa', 'Anita Gurung'],
  }));
});

const today = kathmanduToday();
const newOrder = (extra: Record<string, unknown> = {}, partner = agency) =>
  createOrder(client, partner, touristId, extra);
const preview = (orderRef: string, promoCode: unknown, partner = agency) =>
  client.op(
    'previewOrderPromo',
    'POST',
    `${orderPromoPath(orderRef)}/preview`,
    { promoCode },
    { token: partner.token },
  );
const apply = (orderRef: string, promoCode: unknown, partner = agency) =>
  client.op('applyOrderPromo', 'POST', orderPromoPath(orderRef), { promoCode }, { token: partner.token });
const remove = (orderRef: string, code?: string, partner = agency) =>
  client.op('removeOrderPromo', 'DELETE', orderPromoPath(orderRef), undefined, {
    token: partner.token,
    ...(code === undefined ? {} : { query: { code } }),
  });
const getOrder = async (orderRef: string) => {
  const response = await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: agency.token });
  expectStatus(response, 200);
  return response.body.data;
};
const bindingTo = (owner: PromoOwner) => ({ type: owner.kind, ownerId: owner.id, ownerName: owner.name });
const UNBOUND = { type: 'NONE', ownerId: null, ownerName: null };

/** Everything a promo operation could change: the order as read back and the codes' use counts. */
async function snapshot(orderRef: string, codes: string[]) {
  const order = await getOrder(orderRef);
  const { updatedAt: _updatedAt, ...rest } = order;
  const em = server.orm.em.fork();
  const row = await em.findOneOrFail(Order, { orderRef });
  return { order: rest, version: row.version, uses: await Promise.all(codes.map((code) => usedCount(server, code))) };
}

async function markPaid(orderRef: string) {
  await server.orm.em.fork().nativeUpdate(Order, { orderRef }, { status: OrderStatus.Paid, paidAt: new Date() });
}

describe('POST /orders/{orderRef}/promo: the slot table of the contract', () => {
  it('when the slot is empty, then it holds the code, the order is bound to the code owner and one use is reserved', async () => {
    const order = await newOrder();
    const code = await newCode(server, companyA, { percent: 10 });
    const response = await apply(order.orderRef, code.toLowerCase());
    expectStatus(response, 200);
    expect(response.body.data).toEqual({
      orderRef: order.orderRef,
      companyPromoCode: code,
      agentPromoCode: null,
      binding: bindingTo(companyA),
      totalBefore: 4500,
      discountAmount: 450,
      totalAfter: 4050,
      currency: 'NPR',
    });
    const detail = await getOrder(order.orderRef);
    expect(detail.promoCodes).toEqual({ companyPromoCode: code, agentPromoCode: null });
    expect(detail.binding).toEqual(bindingTo(companyA));
    expect(detail.pricing).toMatchObject({
      companyPromoDiscount: 450,
      agentPromoDiscount: 0,
      totalDiscount: 450,
      totalAmount: 4050,
    });
    expect(await usedCount(server, code)).toBe(1);
  });

  it('when the slot of the same type is occupied, then that slot is replaced, the other is untouched and the old use released', async () => {
    const order = await newOrder();
    const first = await newCode(server, companyA, { percent: 10 });
    const second = await newCode(server, companyA, { amount: 300 });
    const agentCode = await newCode(server, agentX, { amount: 100 });
    expectStatus(await apply(order.orderRef, first), 200);
    expectStatus(await apply(order.orderRef, agentCode), 200);
    const response = await apply(order.orderRef, second);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      companyPromoCode: second,
      agentPromoCode: agentCode,
      binding: bindingTo(companyA),
      discountAmount: 400,
      totalAfter: 4100,
    });
    expect([
      await usedCount(server, first),
      await usedCount(server, second),
      await usedCount(server, agentCode),
    ]).toEqual([0, 1, 1]);
  });

  it('when the code is rejected for any reason, then the answer is 400 and the order is completely unchanged', async () => {
    const order = await newOrder();
    const held = await newCode(server, companyA);
    const refused = await newCode(server, companyB, { usageLimit: 3 });
    await apply(order.orderRef, held);
    const before = await snapshot(order.orderRef, [held, refused]);
    const response = await apply(order.orderRef, refused);
    expectStatus(response, 400);
    expect(await snapshot(order.orderRef, [held, refused])).toEqual(before);
  });

  it('when previewing, then the projected state is returned and neither the order nor the use count changes', async () => {
    const order = await newOrder();
    const code = await newCode(server, agentX, { amount: 500, usageLimit: 1 });
    const before = await snapshot(order.orderRef, [code]);
    const response = await preview(order.orderRef, code);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      agentPromoCode: code,
      binding: bindingTo(agentX),
      totalBefore: 4500,
      discountAmount: 500,
      totalAfter: 4000,
    });
    expect(await snapshot(order.orderRef, [code])).toEqual(before);
    // the one use is still free: a preview reserved nothing
    expectStatus(await apply(order.orderRef, code), 200);
  });

  it('when removing an applied code, then its slot is cleared, its use released and the binding it created rolled back', async () => {
    const order = await newOrder();
    const companyCode = await newCode(server, companyA);
    const agentCode = await newCode(server, agentX, { amount: 100 });
    await apply(order.orderRef, companyCode);
    await apply(order.orderRef, agentCode);
    const response = await remove(order.orderRef, companyCode.toLowerCase());
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      companyPromoCode: null,
      agentPromoCode: agentCode,
      binding: UNBOUND,
      discountAmount: 100,
      totalAfter: 4400,
    });
    expect(await usedCount(server, companyCode)).toBe(0);
    expect((await getOrder(order.orderRef)).pricing).toMatchObject({
      companyPromoDiscount: 0,
      agentPromoDiscount: 100,
      totalAmount: 4400,
    });
  });

  it('when removing the code that did not create the binding, then the binding stays', async () => {
    const order = await newOrder();
    const companyCode = await newCode(server, companyA);
    const agentCode = await newCode(server, agentX, { amount: 100 });
    await apply(order.orderRef, companyCode);
    await apply(order.orderRef, agentCode);
    const response = await remove(order.orderRef, agentCode);
    expect(response.body.data).toMatchObject({
      companyPromoCode: companyCode,
      agentPromoCode: null,
      binding: bindingTo(companyA),
    });
  });

  it('when removing without a code, then both slots are cleared with the same reversal', async () => {
    const order = await newOrder();
    const companyCode = await newCode(server, companyA);
    const agentCode = await newCode(server, agentX, { amount: 100 });
    await apply(order.orderRef, agentCode);
    await apply(order.orderRef, companyCode);
    const response = await remove(order.orderRef);
    expectStatus(response, 200);
    expect(response.body.data).toEqual({
      orderRef: order.orderRef,
      companyPromoCode: null,
      agentPromoCode: null,
      binding: UNBOUND,
      totalBefore: 4500,
      discountAmount: 0,
      totalAfter: 4500,
      currency: 'NPR',
    });
    expect([await usedCount(server, companyCode), await usedCount(server, agentCode)]).toEqual([0, 0]);
    expect((await getOrder(order.orderRef)).pricing.totalAmount).toBe(4500);
  });

  it('when removing a code that is not on the order, then nothing changes and the current state is returned', async () => {
    const order = await newOrder();
    const held = await newCode(server, companyA);
    const other = await newCode(server, companyA);
    await apply(order.orderRef, held);
    const before = await snapshot(order.orderRef, [held, other]);
    for (const code of [other, 'NO-SUCH-CODE']) {
      const response = await remove(order.orderRef, code);
      expectStatus(response, 200);
      expect(response.body.data).toMatchObject({ companyPromoCode: held, binding: bindingTo(companyA) });
    }
    expect(await snapshot(order.orderRef, [held, other])).toEqual(before);
  });

  it('when the same code is applied again, then nothing changes and no second use is reserved', async () => {
    const order = await newOrder();
    const code = await newCode(server, companyA, { usageLimit: 1 });
    await apply(order.orderRef, code);
    const again = await apply(order.orderRef, code);
    expectStatus(again, 200);
    expect(again.body.data.companyPromoCode).toBe(code);
    expect(await usedCount(server, code)).toBe(1);
  });
});

describe('POST /orders/{orderRef}/promo: the binding table of the contract', () => {
  /** An order bound to `owner` by one of its codes (or unbound). */
  async function orderBoundTo(owner?: PromoOwner) {
    const order = await newOrder();
    if (owner) expectStatus(await apply(order.orderRef, await newCode(server, owner)), 200);
    return order.orderRef;
  }

  it.each([
    ["an unbound order accepts any company's code", undefined, () => companyB, true],
    ["an unbound order accepts any agent's code", undefined, () => agentY, true],
    ["an order bound to company A accepts A's company code", () => companyA, () => companyA, true],
    ["an order bound to company A refuses company B's code", () => companyA, () => companyB, false],
    ["an order bound to company A accepts any agent's code", () => companyA, () => agentY, true],
    ["an order bound to agent X accepts any company's code", () => agentX, () => companyB, true],
    ["an order bound to agent X accepts X's agent code", () => agentX, () => agentX, true],
    ["an order bound to agent X refuses agent Y's code", () => agentX, () => agentY, false],
  ] as Array<[string, (() => PromoOwner) | undefined, () => PromoOwner, boolean]>)(
    '%s',
    async (_label, boundTo, codeOwner, accepted) => {
      const owner = codeOwner();
      const orderRef = await orderBoundTo(boundTo?.());
      const code = await newCode(server, owner);
      const response = await apply(orderRef, code);
      expectStatus(response, accepted ? 200 : 400);
      if (accepted) {
        const slot = owner.kind === 'COMPANY' ? 'companyPromoCode' : 'agentPromoCode';
        expect(response.body.data[slot]).toBe(code);
        // the first code binds; later ones keep the binding
        expect(response.body.data.binding).toEqual(bindingTo(boundTo?.() ?? owner));
      } else {
        expect(response.body.message).toBe('Invalid promo code');
        expect(await usedCount(server, code)).toBe(0);
      }
    },
  );
});

describe('promo rejections cannot be told apart', () => {
  it('answers every cause with a byte-identical 400 apart from timestamp and path', async () => {
    const order = await newOrder();
    await apply(order.orderRef, await newCode(server, companyA));
    const exhausted = await newCode(server, companyA, { usageLimit: 1 });
    await apply((await newOrder()).orderRef, exhausted);
    const yesterday = addDays(today, -1);
    const tomorrow = addDays(today, 1);

    const causes: Array<[string, () => Promise<{ status: number; body: WireJson }>]> = [
      ['unknown', async () => apply(order.orderRef, 'NO-SUCH-CODE')],
      [
        'expired',
        async () =>
          apply(
            order.orderRef,
            await newCode(server, companyA, { validFrom: addDays(today, -30), validTo: yesterday }),
          ),
      ],
      ['not yet valid', async () => apply(order.orderRef, await newCode(server, companyA, { validFrom: tomorrow }))],
      ['inactive', async () => apply(order.orderRef, await newCode(server, companyA, { active: false }))],
      ['usage limit reached', async () => apply(order.orderRef, exhausted)],
      ['owned by a party the binding refuses', async () => apply(order.orderRef, await newCode(server, companyB))],
      ['blank', async () => apply(order.orderRef, '')],
      ['only spaces', async () => apply(order.orderRef, '   ')],
      [
        'missing',
        async () => client.op('applyOrderPromo', 'POST', orderPromoPath(order.orderRef), {}, { token: agency.token }),
      ],
      ['preview of an unknown code', async () => preview(order.orderRef, 'NO-SUCH-CODE')],
      ['blank code to remove', async () => remove(order.orderRef, '')],
    ];
    const bodies: string[] = [];
    for (const [cause, call] of causes) {
      const response = await call();
      expect({ cause, status: response.status }).toEqual({ cause, status: 400 });
      const { timestamp, path, ...rest } = response.body;
      expect(typeof timestamp).toBe('string');
      expect(typeof path).toBe('string');
      bodies.push(JSON.stringify(rest));
    }
    expect(new Set(bodies)).toEqual(
      new Set([
        JSON.stringify({
          status: 400,
          error: 'Bad Request',
          message: 'Invalid promo code',
          code: 'PROMO_CODE_INVALID',
        }),
      ]),
    );
  });
});

describe('promo operations on orders that are not pending, not yours or not there', () => {
  it('rejects preview, apply and remove on a paid order with 400 and leaves its discount as it was', async () => {
    const order = await newOrder();
    const code = await newCode(server, companyA);
    await apply(order.orderRef, code);
    await markPaid(order.orderRef);
    const before = await snapshot(order.orderRef, [code]);
    expectStatus(await preview(order.orderRef, await newCode(server, agentX)), 400);
    expectStatus(await apply(order.orderRef, await newCode(server, agentX)), 400);
    expectStatus(await remove(order.orderRef, code), 400);
    expectStatus(await remove(order.orderRef), 400);
    expect(await snapshot(order.orderRef, [code])).toEqual(before);
  });

  it('says the order is no longer pending, the same for every code, known or not', async () => {
    const order = await newOrder();
    await markPaid(order.orderRef);
    const bodies = new Set<string>();
    for (const code of [
      'NO-SUCH-CODE',
      await newCode(server, companyA),
      await newCode(server, companyA, { active: false }),
    ]) {
      const response = await apply(order.orderRef, code);
      expectStatus(response, 400);
      bodies.add(response.body.message);
    }
    expect([...bodies]).toEqual([
      `Order ${order.orderRef} is PAID: its promo codes can change only while it is pending and unpaid`,
    ]);
  });

  it("answers 403 for another company's order and 404 for no order, on every single-order operation", async () => {
    const order = await newOrder();
    const other = await newPartner(server, client);
    const code = await newCode(server, companyA);
    for (const call of [
      () => preview(order.orderRef, code, other),
      () => apply(order.orderRef, code, other),
      () => remove(order.orderRef, undefined, other),
    ]) {
      expectStatus(await call(), 403);
    }
    for (const call of [
      () => preview('ORD-2026-999999', code),
      () => apply('ORD-2026-999999', code),
      () => remove('ORD-2026-999999'),
    ]) {
      expectStatus(await call(), 404);
    }
    expect(await usedCount(server, code)).toBe(0);
  });

  it('accepts the order number and the order UUID as well as the order reference', async () => {
    const order = await newOrder();
    const code = await newCode(server, companyA);
    expect((await apply(order.orderNumber, code)).body.data.orderRef).toBe(order.orderRef);
    expect((await remove(order.orderId, code)).body.data.companyPromoCode).toBeNull();
  });
});

describe('POST /orders with promoCode', () => {
  it('when the code is usable, then the order is created with it applied and promoApplyResult says so', async () => {
    const code = await newCode(server, companyA, { usageLimit: 1 });
    const order = await newOrder({ promoCode: ` ${code.toLowerCase()} ` });
    expect(order.promoApplyResult).toEqual({
      promoCode: ` ${code.toLowerCase()} `,
      applied: true,
      reason: null,
      message: 'Promo code applied',
    });
    expect(order.promoCodes).toEqual({ companyPromoCode: code, agentPromoCode: null });
    expect(order.binding).toEqual(bindingTo(companyA));
    expect(order.pricing).toMatchObject({ companyPromoDiscount: 450, totalAmount: 4050 });
    expect(await usedCount(server, code)).toBe(1);
  });

  it('when the code is rejected, then the order is still created (201) without a discount and promoApplyResult says it was invalid', async () => {
    const exhausted = await newCode(server, companyA, { usageLimit: 1 });
    await newOrder({ promoCode: exhausted });
    for (const promoCode of ['NO-SUCH-CODE', exhausted, await newCode(server, agentX, { active: false })]) {
      const order = await newOrder({ promoCode });
      expect(order.status).toBe('PENDING');
      expect(order.promoApplyResult).toEqual({
        promoCode,
        applied: false,
        reason: 'INVALID_PROMO_CODE',
        message: 'Invalid promo code',
      });
      expect(order.promoCodes).toEqual({ companyPromoCode: null, agentPromoCode: null });
      expect(order.binding).toEqual(UNBOUND);
      expect(order.pricing.totalAmount).toBe(4500);
      expect((await getOrder(order.orderRef)).pricing.totalAmount).toBe(4500);
    }
    expect(await usedCount(server, exhausted)).toBe(1);
  });

  it("applies each item's code in a batch, non-fatally and within the usage limit", async () => {
    const code = await newCode(server, agentX, { amount: 200, usageLimit: 2 });
    const body = [1, 2, 3].map(() => ({
      touristId,
      ctgId: '1c4e7a92-b3f0-4d65-8e19-a27c5b0d3f86',
      customRouteName: 'Kathmandu valley rim walk',
      departureDate: addDays(today, 30),
      promoCode: code,
    }));
    const response = await client.op('createOrders', 'POST', ORDERS, body, { token: agency.token });
    expectStatus(response, 201);
    expect(response.body.data.orders.map((order: WireJson) => order.promoApplyResult.applied)).toEqual([
      true,
      true,
      false,
    ]);
    expect(response.body.data.totals).toMatchObject({ orderCount: 3, totalDiscount: 400, totalAmount: 13100 });
    expect(await usedCount(server, code)).toBe(2);
  });
});

describe('demo promo codes of the sandbox', () => {
  it('seeds the documented codes: two companies, two agents, one expired, one inactive, one single-use', async () => {
    const codes = await server.orm.em
      .fork()
      .find(PromoCode, { code: { $in: DEMO_PROMO_CODES.map((code) => code.code) } });
    expect(codes).toHaveLength(DEMO_PROMO_CODES.length);
    const companyOwners = new Set(codes.filter((code) => code.ownerCompany).map((code) => code.ownerCompany!.id));
    const agentOwners = new Set(codes.filter((code) => code.ownerAgent).map((code) => code.ownerAgent!.id));
    expect(companyOwners.size).toBe(2);
    expect(agentOwners.size).toBe(2);
    expect(codes.find((code) => code.code === 'ONCE25')?.usageLimit).toBe(1);
  });

  it('applies a live demo code and refuses the expired and the inactive one', async () => {
    const order = await newOrder();
    expect((await apply(order.orderRef, 'himalaya10')).body.data).toMatchObject({
      companyPromoCode: 'HIMALAYA10',
      totalAfter: 4050,
    });
    expectStatus(await apply(order.orderRef, 'EXPIRED20'), 400);
    expectStatus(await apply(order.orderRef, 'INACTIVE15'), 400);
    expect((await remove(order.orderRef)).body.data.companyPromoCode).toBeNull();
  });
});
