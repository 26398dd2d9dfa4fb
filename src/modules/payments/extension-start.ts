import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalid, invalidField } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { businessToday } from '../../kernel/business-today';
import {
  expireUnpaidExtension,
  extensionOfTopUp,
  extensionByKey,
  openAmendmentOf,
  quoteExtension,
  recordExtension,
  resolveOrder,
  extensionAsk,
  type ExtensionRefusal,
  type OrderAmendment,
} from '../orders';
import type { Order } from '../orders/entities/order';
import { PaymentAttempt, type GatewayName } from './entities/payment-attempt';
import { payRequestFingerprint, type PayRequestFacts } from './rules/payment-request';
import type { PaymentDeps } from './payment-deps';
import { checkReturnUrl, createAttempt, withCheckout, withIdempotency } from './payment-start';

type ExtensionInput = Schemas['ExtensionRequest'];

/** An extension as its request answers it: the amendment and, when something is due, its top-up's checkout. */
export interface StartedExtension {
  amendment: OrderAmendment;
  paymentUrl: string | null;
  /** The key's first answer given again (answered with Idempotency-Replayed). */
  replayed: boolean;
}

/**
 * POST /orders/{orderRef}/extension (decision record 0099): under the Idempotency-Key and the
 * order's row lock, as pay, the extension is checked and priced; nothing due applies it at once,
 * otherwise its top-up attempt is started through pay's own machinery (createAttempt, then the
 * provider's checkout outside the transaction) and the amendment awaits its capture.
 */
export async function startOrderExtension(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: ExtensionInput,
  idempotencyKey: string,
  deps: PaymentDeps,
): Promise<StartedExtension> {
  checkReturnUrl(input, deps);
  const ask = extensionAsk(input);
  // Under a disruption nothing is paid, so no gateway is named (decision record 0102).
  if (input.gateway === undefined && ask.disruptionId === undefined)
    throw invalidField('gateway', 'gateway is required unless the extension is made under a disruption (disruptionId)');
  // The key's fingerprint names a gateway; a free extension starts no attempt, so any fixed one serves.
  const gateway = input.gateway ?? 'card_gateway';
  const started = await withIdempotency(em, principal, idempotencyKey, deps, async (tx, replay, superseded) => {
    const { order } = await resolveOrder(tx, principal, identifier, {
      intent: 'ACT',
      lockForUpdate: true,
      populate: [],
    });
    // The request as asked (extraDays, not the end they make): a retry after the extension applied is the same request.
    const facts: PayRequestFacts<GatewayName> = {
      target: { kind: 'EXTENSION', id: `${order.id}:${JSON.stringify(ask)}` },
      gateway,
      returnUrl: input.returnUrl,
    };
    const previous = await replay(facts);
    if (previous)
      return { attempt: previous, amendment: await extensionOfTopUp(tx, previous.paymentRef), replayed: true };
    // A retry of an extension applied at once (nothing due, so no attempt holds its key) answers it again.
    const keyed = await extensionByKey(tx, order, idempotencyKey);
    if (keyed) {
      if (keyed.requestFingerprint !== payRequestFingerprint(facts)) throw keyReused();
      return { attempt: null, amendment: keyed, replayed: true };
    }
    await closeUnpaidTopUps(tx, order);
    const now = new Date();
    const quote = await quoteExtension(tx, order, ask, businessToday(now));
    if (quote.refusalNow) throw refusedNow(quote.refusalNow);
    const actor = `partner-api:${principal.companyId}`;
    if (quote.amountDue === 0) {
      const amendment = await recordExtension(tx, quote, null, now, actor, {
        idempotencyKey,
        fingerprint: payRequestFingerprint(facts),
      });
      await tx.flush();
      return { attempt: null, amendment, replayed: false };
    }
    const last = await tx.findOne(
      PaymentAttempt,
      { scope: 'ORDER', orders: { order: order.id } },
      { orderBy: { createdAt: 'desc' } },
    );
    const attempt = await createAttempt(
      tx,
      {
        principal,
        facts,
        ownerRef: order.orderRef,
        orders: [order],
        lastCreatedAt: last?.createdAt,
        idempotencyKey,
        superseded,
        topUp: quote.amountDue,
      },
      deps,
    );
    const amendment = await recordExtension(tx, quote, attempt.paymentRef, now, actor);
    await tx.flush();
    return { attempt, amendment, replayed: false };
  });
  if (!started.amendment) throw new Error('an extension attempt without its amendment');
  const { amendment, replayed } = started;
  if (!started.attempt) return { amendment, paymentUrl: null, replayed };
  const checkout = await withCheckout(em, started.attempt, deps);
  return { amendment, paymentUrl: checkout.paymentUrl, replayed };
}

/**
 * An extension whose top-up ended unpaid (failed, cancelled, expired) no longer holds the order:
 * it expired with its checkout; one whose checkout ended before that was written (an older row)
 * expires here, before the next request checks for an open one.
 */
export async function closeUnpaidTopUps(tx: EntityManager, order: Order): Promise<void> {
  const open = await openAmendmentOf(tx, order);
  if (!open?.paymentRef) return;
  const attempt = await tx.findOne(PaymentAttempt, { paymentRef: open.paymentRef });
  if (!attempt || !['FAILED', 'CANCELLED', 'EXPIRED'].includes(attempt.status)) return;
  expireUnpaidExtension(open);
  // Written now: the open-extension rule reads the table next.
  await tx.flush();
}

/** The error of an extension refused now: another awaiting its top-up (its message names it) or an ended disruption is a 409. */
export function refusedNow(refusal: ExtensionRefusal) {
  const refused = refusal.code === 'EXTENSION_ALREADY_OPEN' || refusal.code === 'DISRUPTION_ENDED' ? conflict : invalid;
  return refused(refusal.message).coded(refusal.code);
}

export const keyReused = () =>
  conflict(
    'This Idempotency-Key was already used for a different payment request; use a new key for a new request',
  ).coded('IDEMPOTENCY_KEY_REUSED');
