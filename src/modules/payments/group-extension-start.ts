import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidField } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { businessToday } from '../../kernel/business-today';
import type { Minor } from '../../kernel/money';
import { extensionAsk, OrderStatus, quoteGroupExtension, recordExtension, resolveGroup } from '../orders';
import { OrderAmendment } from '../orders/entities/order-amendment';
import type { Order } from '../orders/entities/order';
import { PaymentAttempt, type GatewayName } from './entities/payment-attempt';
import { payRequestFingerprint, type PayRequestFacts } from './rules/payment-request';
import type { PaymentDeps } from './payment-deps';
import { checkReturnUrl, createAttempt, withCheckout, withIdempotency } from './payment-start';
import { closeUnpaidTopUps, keyReused, refusedNow } from './extension-start';

/** A group's extension as its request answers it: one amendment per member and the one top-up's checkout. */
export interface StartedGroupExtension {
  groupRef: string;
  amendments: OrderAmendment[];
  /** The cancelled members, left out. */
  skipped: Order[];
  paymentRef: string | null;
  paymentUrl: string | null;
  replayed: boolean;
}

/**
 * POST /orders/groups/{groupRef}/extension (decision record 0108): every member's extension paid
 * by one top-up. Under the Idempotency-Key and every member's row lock (the group's lock order),
 * each member is checked and priced as a single extension is; the members with something due
 * share one group attempt, a share each (as a group payment's), which its capture settles whole
 * (settlement.ts); a member with nothing due is applied at once, as a single extension would be.
 */
export async function startGroupExtension(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: Schemas['ExtensionRequest'],
  idempotencyKey: string,
  deps: PaymentDeps,
): Promise<StartedGroupExtension> {
  checkReturnUrl(input, deps);
  const ask = extensionAsk(input);
  // Under a disruption nothing is paid, so no gateway is named (decision record 0102).
  if (input.gateway === undefined && ask.disruptionId === undefined)
    throw invalidField('gateway', 'gateway is required unless the extension is made under a disruption (disruptionId)');
  const gateway = input.gateway ?? 'card_gateway';
  const key = idempotencyKey.toLowerCase();
  const started = await withIdempotency(em, principal, idempotencyKey, deps, async (tx, replay, superseded) => {
    const { group, orders } = await resolveGroup(tx, principal, identifier, { lockForUpdate: true });
    const facts: PayRequestFacts<GatewayName> = {
      target: { kind: 'GROUP_EXTENSION', id: `${group.id}:${JSON.stringify(ask)}` },
      gateway,
      returnUrl: input.returnUrl,
    };
    const skipped = orders.filter((order) => order.status === OrderStatus.Cancelled);
    const previous = await replay(facts);
    // Every member's amendment carries the key: a retry finds them whether a top-up was started or not.
    const keyed = await tx.find(
      OrderAmendment,
      { order: { $in: orders.map((order) => order.id) }, idempotencyKey: key },
      { populate: ['order', 'disruption'] },
    );
    if (keyed.length > 0) {
      if (keyed.some((amendment) => amendment.requestFingerprint !== payRequestFingerprint(facts))) throw keyReused();
      const place = (amendment: OrderAmendment) => orders.findIndex((order) => order.id === amendment.order.id);
      const amendments = keyed.sort((a, b) => place(a) - place(b));
      return { groupRef: group.groupRef, amendments, skipped, attempt: previous ?? null, replayed: true };
    }
    for (const order of orders) if (order.status === OrderStatus.Paid) await closeUnpaidTopUps(tx, order);
    const now = new Date();
    const quote = await quoteGroupExtension(tx, group, orders, ask, businessToday(now));
    if (quote.refusalNow) throw refusedNow(quote.refusalNow);
    const paying = quote.members.filter((member) => member.amountDue > 0);
    const last = await tx.findOne(
      PaymentAttempt,
      { scope: 'GROUP', group: group.id },
      { orderBy: { createdAt: 'desc' } },
    );
    const attempt =
      paying.length === 0
        ? null
        : await createAttempt(
            tx,
            {
              principal,
              facts,
              ownerRef: group.groupRef,
              orders: paying.map((member) => member.order),
              lastCreatedAt: last?.createdAt,
              idempotencyKey,
              superseded,
              group,
              topUps: new Map<string, Minor>(paying.map((member) => [member.order.id, member.amountDue])),
            },
            deps,
          );
    const paymentRef = attempt?.paymentRef ?? null;
    const actor = `partner-api:${principal.companyId}`;
    const request = { idempotencyKey, fingerprint: payRequestFingerprint(facts) };
    const amendments: OrderAmendment[] = [];
    for (const member of quote.members)
      amendments.push(await recordExtension(tx, member, member.amountDue > 0 ? paymentRef : null, now, actor, request));
    await tx.flush();
    return { groupRef: group.groupRef, amendments, skipped, attempt, replayed: false };
  });
  const { attempt, ...answer } = started;
  if (!attempt) return { ...answer, paymentRef: null, paymentUrl: null };
  const checkout = await withCheckout(em, attempt, deps);
  return { ...answer, paymentRef: attempt.paymentRef, paymentUrl: checkout.paymentUrl };
}
