import { randomUUID } from 'node:crypto';
import { PAID_ORDER_STATUSES } from '../../src/modules/orders/entities/order';
import { orderPaymentStatus, type OrderShare } from '../../src/modules/payments/payment-status';
import type { AttemptStatus, ShareSettlement } from '../../src/modules/payments/rules/payment-attempt';
import { copyRow } from '../support/bulk-orders';
import { newPartner } from '../support/partners';
import { pay, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * One table of cases for the payment status an order's reader sees (decision record 0105): the
 * TypeScript rule of payment-status.ts (GET /orders/{orderRef}/payment-status) and the SQL
 * function `order_payment_status`, which keeps the order's `payment_status` column for the order
 * book, run over the same rows and must both answer the expected status. The SQL side runs on
 * the real PostgreSQL: each case is an order row with its attempts, shares and refund written
 * straight into the tables, so the triggers that keep the column run too.
 */
// A database of its own: the orders, attempts and refunds written straight into it are no other file's business.
const { server, client } = useTestServer({ ownDatabase: 'payment_status_cases' });

interface Share {
  attempt: AttemptStatus;
  settlement: ShareSettlement | null;
  /** How long before the case's reference time the attempt was created. */
  minutesAgo: number;
  /** The refund of the order's cancellation (or of the provider's full reversal) gives this share back. */
  refunded?: 'CANCELLATION' | 'PROVIDER_REVERSAL';
}
type Case = [name: string, orderStatus: string, paid: boolean, shares: Share[], expected: string];

const CASES: Case[] = [
  ['an order never sent to pay', 'PENDING', false, [], 'NOT_INITIATED'],
  [
    'an order at the checkout',
    'PENDING',
    false,
    [{ attempt: 'INITIATED', settlement: null, minutesAgo: 1 }],
    'INITIATED',
  ],
  [
    'a declined card, then a new checkout: the most recent attempt',
    'PENDING',
    false,
    [
      { attempt: 'FAILED', settlement: null, minutesAgo: 20 },
      { attempt: 'INITIATED', settlement: null, minutesAgo: 1 },
    ],
    'INITIATED',
  ],
  [
    'a checkout left to expire after an older one',
    'PENDING',
    false,
    [
      { attempt: 'INITIATED', settlement: null, minutesAgo: 20 },
      { attempt: 'EXPIRED', settlement: null, minutesAgo: 5 },
    ],
    'EXPIRED',
  ],
  [
    'a capture not yet settled on the order',
    'PENDING',
    false,
    [{ attempt: 'SUCCESS', settlement: null, minutesAgo: 1 }],
    'SUCCESS',
  ],
  ['a paid order', 'PAID', true, [{ attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 1 }], 'SUCCESS'],
  ['a completed trip', 'COMPLETED', true, [{ attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 1 }], 'SUCCESS'],
  ['a closed trip', 'CLOSED', true, [{ attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 1 }], 'SUCCESS'],
  [
    'a paid order whose extension top-up then failed: the payment that paid it',
    'PAID',
    true,
    [
      { attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 60 },
      { attempt: 'FAILED', settlement: null, minutesAgo: 1 },
    ],
    'SUCCESS',
  ],
  [
    'a paid order with an older attempt captured too late: the payment that paid it',
    'PAID',
    true,
    [
      { attempt: 'SUCCESS', settlement: 'REFUND_PENDING', minutesAgo: 60 },
      { attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 30 },
    ],
    'SUCCESS',
  ],
  [
    'a paid and extended order',
    'PAID',
    true,
    [
      { attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 60 },
      { attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 1 },
    ],
    'SUCCESS',
  ],
  [
    'an unpaid order cancelled with its checkout closed',
    'CANCELLED',
    false,
    [{ attempt: 'CANCELLED', settlement: null, minutesAgo: 1 }],
    'CANCELLED',
  ],
  [
    'an unpaid cancelled order whose checkout was captured after: owed back',
    'CANCELLED',
    false,
    [{ attempt: 'SUCCESS', settlement: 'REFUND_PENDING', minutesAgo: 1 }],
    'REFUND_PENDING',
  ],
  [
    'a paid order cancelled, its refund on the way',
    'CANCELLED',
    true,
    [{ attempt: 'SUCCESS', settlement: 'REFUND_PENDING', minutesAgo: 1, refunded: 'CANCELLATION' }],
    'REFUND_PENDING',
  ],
  [
    'a paid order cancelled, its refund made',
    'CANCELLED',
    true,
    [{ attempt: 'SUCCESS', settlement: 'REFUNDED', minutesAgo: 1, refunded: 'CANCELLATION' }],
    'REFUNDED',
  ],
  [
    'a paid order the provider fully reversed',
    'CANCELLED',
    true,
    [{ attempt: 'SUCCESS', settlement: 'REFUNDED', minutesAgo: 1, refunded: 'PROVIDER_REVERSAL' }],
    'REFUNDED',
  ],
  [
    'a paid and extended order cancelled: the refunded payment, not the newer top-up',
    'CANCELLED',
    true,
    [
      { attempt: 'SUCCESS', settlement: 'REFUND_PENDING', minutesAgo: 60, refunded: 'CANCELLATION' },
      { attempt: 'SUCCESS', settlement: 'PAID', minutesAgo: 1 },
    ],
    'REFUND_PENDING',
  ],
];

describe('the payment status of an order: one table for payment-status.ts and the SQL order_payment_status', () => {
  const reference = Date.now();
  const at = (minutesAgo: number) => new Date(reference - minutesAgo * 60_000);
  let baseOrderId: string;
  let baseAttemptId: string;

  beforeAll(async () => {
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    expectStatus(await pay(client, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }), 200);
    baseOrderId = order.orderId;
    const lines = await server.orm.em
      .getConnection()
      .execute<{ attempt_id: string }[]>('select attempt_id from payment_attempt_order where order_id = ?', [
        order.orderId,
      ]);
    if (lines.length !== 1 || !lines[0]) throw new Error(`expected one share of the base order, found ${lines.length}`);
    baseAttemptId = lines[0].attempt_id;
  });

  /** The case written into the tables: an order, and per share an attempt, its share and its refund. */
  async function written(index: number, orderStatus: string, paid: boolean, shares: Share[]) {
    const sql = server.orm.em.getConnection();
    const orderId = randomUUID();
    await copyRow(server, 'insurance_order', baseOrderId, 1, {
      id: `'${orderId}'`,
      order_ref: `order_ref || '-T${index}'`,
      order_number: `order_number || '-T${index}'`,
      status: `'${orderStatus}'`,
      payment_status: "'NOT_INITIATED'",
      paid_at: paid ? `'${at(90).toISOString()}'::timestamptz` : 'null',
    });
    const rows: OrderShare[] = [];
    let refundedAttemptId: string | undefined;
    for (const [n, share] of shares.entries()) {
      const attemptId = randomUUID();
      await copyRow(server, 'payment_attempt', baseAttemptId, 1, {
        id: `'${attemptId}'`,
        payment_ref: `payment_ref || '-T${index}-${n}'`,
        idempotency_key: 'gen_random_uuid()',
        status: `'${share.attempt}'`,
        created_at: `'${at(share.minutesAgo).toISOString()}'::timestamptz`,
      });
      await sql.execute(
        'insert into payment_attempt_order (attempt_id, order_id, amount, settlement) values (?, ?, 4500, ?)',
        [attemptId, orderId, share.settlement],
      );
      if (share.refunded) {
        refundedAttemptId = attemptId;
        await sql.execute(
          `insert into refund (id, refund_ref, order_id, attempt_id, cause, amount, currency, gateway, actor, created_at, updated_at)
           values (gen_random_uuid(), ?, ?, ?, ?, 4500, 'NPR', 'card_gateway', 'test', now(), now())`,
          [`RFD-T${index}-${n}-${randomUUID()}`, orderId, attemptId, share.refunded],
        );
        // The refund is recorded with the share's settlement in one flush: the share's update is what recomputes the column.
        await sql.execute('update payment_attempt_order set settlement = settlement where attempt_id = ?', [attemptId]);
      }
      rows.push({
        attemptId,
        attemptStatus: share.attempt,
        attemptCreatedAt: at(share.minutesAgo),
        settlement: share.settlement,
      });
    }
    return { orderId, rows, refundedAttemptId };
  }

  it.each(
    CASES.map(([name, orderStatus, paid, shares, expected], index) => ({
      index,
      name,
      orderStatus,
      paid,
      shares,
      expected,
    })),
  )('$name: $expected', async ({ index, orderStatus, paid, shares, expected }) => {
    const { orderId, rows, refundedAttemptId } = await written(index, orderStatus, paid, shares);

    expect(orderPaymentStatus(orderStatus, rows, paid ? refundedAttemptId : undefined)).toBe(expected);

    const inSql = await server.orm.em
      .getConnection()
      .execute<{ computed: string; kept: string }[]>(
        'select order_payment_status(id, status) as computed, payment_status as kept from insurance_order where id = ?',
        [orderId],
      );
    expect(inSql).toEqual([{ computed: expected, kept: expected }]);
  });

  it('the SQL function names exactly the paid order statuses of TypeScript, wherever it names them', async () => {
    const functions = await server.orm.em
      .getConnection()
      .execute<{ definition: string }[]>(
        `select pg_get_functiondef('order_payment_status(uuid, text)'::regprocedure) as definition`,
      );
    const definition = functions[0]?.definition ?? '';
    const lists = [...definition.matchAll(/p_order_status in \(([^)]*)\)/g)].map((match) =>
      (match[1] ?? '').split(',').map((status) => status.trim().replace(/^'|'$/g, '')),
    );
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list).toEqual([...PAID_ORDER_STATUSES]);
  });
});
