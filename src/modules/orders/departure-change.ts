import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid, type ErrorCode } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { recordOrderAmendedEvent } from '../webhooks';
import { recordAudit } from './audit-log';
import { OrderStatus, type Order } from './entities/order';
import { resolveOrder } from './order-lookup';
import {
  departureChangeRefusal,
  departureShiftError,
  movedDates,
  newDepartureError,
  type OrderDates,
} from './rules/departure-change';
import type { OrderSettings } from './settings';
import { businessToday } from '../../kernel/business-today';

export interface DepartureChange {
  order: Order;
  /** False for the order's current date: nothing was written, nothing announced. */
  changed: boolean;
}

/**
 * PATCH /orders/{orderRef}: the placing company moves the order's departure date, in one
 * transaction holding the order's row lock (the one pay settlement, promo changes and
 * cancellation take), so a capture or a cancellation lands wholly before or wholly after it:
 * the refusal below reads the status they leave.
 *
 * The steps: the order, locked (404, 403 to anybody but the placing company) -> the same date is
 * an answer, not a change -> the order may move (400) -> the new date may be booked (400 with
 * the field) -> the dates shift, the amendment is kept on the order, an audit entry and the
 * `order.amended` event join the transaction. The price, the policy number and the group's
 * other orders are not touched.
 */
export async function changeDeparture(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  departureDate: string,
  settings: OrderSettings,
  at?: Date,
): Promise<DepartureChange> {
  return em.transactional(async (tx) => {
    const { order } = await resolveOrder(tx, principal, identifier, { intent: 'ACT', lockForUpdate: true });
    // Before the state rules: a retry of a change that already happened answers as the change did.
    if (order.departureDate === departureDate) return { order, changed: false };

    // Read once the lock is held: a change that waited for another is dated after it, so the
    // audit log's order is the order the changes happened in.
    const now = at ?? new Date();
    const today = businessToday(now);
    const refusal = departureChangeRefusal(order, today);
    if (refusal) throw invalid(refusal).coded(departureRefusalCode(order, today));
    const booked = order.bookedDepartureDate ?? order.departureDate;
    // The bound first: a date decades away would otherwise be refused for the traveller's age there.
    const dateError =
      departureShiftError(departureDate, booked, settings.departureChangeMaxDays) ??
      newDepartureError(departureDate, order.traveller, order.ctg, today);
    if (dateError) throw invalid('Validation failed', { departureDate: dateError });

    const previous: OrderDates = {
      departureDate: order.departureDate,
      coverageStartDate: order.coverageStartDate,
      coverageEndDate: order.coverageEndDate,
    };
    const moved = movedDates(previous, departureDate);
    Object.assign(order, moved);
    order.bookedDepartureDate = booked;
    order.amendedAt = now;
    order.previousDepartureDate = previous.departureDate;
    order.previousCoverageStartDate = previous.coverageStartDate;
    order.previousCoverageEndDate = previous.coverageEndDate;
    recordAudit(tx, {
      actor: `partner-api:${principal.companyId}`,
      action: 'DEPARTURE_CHANGED',
      order,
      at: now,
      details: { previous, current: moved, orderStatus: order.status, policyNumber: order.policyNumber ?? null },
    });
    await recordOrderAmendedEvent(tx, order, previous, now);
    await tx.flush();
    return { order, changed: true };
  });
}

/** The code a partner branches on when a date change is refused: cancelled, cover started, or another state. */
function departureRefusalCode(order: Order, today: string): ErrorCode {
  if (order.status === OrderStatus.Cancelled) return 'ORDER_ALREADY_CANCELLED';
  return today >= order.coverageStartDate ? 'COVER_STARTED' : 'INVALID_REQUEST';
}
