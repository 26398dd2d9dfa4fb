import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import { disruptionByRef, disruptionStatus, lastDayOf, type Disruption } from '../catalogue';
import type { Order } from './entities/order';
import type { OrderAmendment } from './entities/order-amendment';
import { disruptionEndedRefusal, disruptionExtensionRefusal, freeDaysBetween } from './rules/disruption-extension';
import type { ExtensionRefusal } from './rules/extension';

/** The disruption an extension is made under, checked, and why it cannot be made now (it ended), if so. */
export interface UnderDisruption {
  disruption: Disruption;
  refusalNow: ExtensionRefusal | null;
}

/**
 * Checks an extension asked under a disruption (decision record 0102): the disruption exists,
 * the order's route is in its area, the cover's last day before any extension under it falls
 * within it, and the days added under it stay within its `maxDays` (each a 400 with its code).
 * `applied` are the order's applied extensions.
 */
export async function underDisruption(
  tx: EntityManager,
  order: Order,
  ref: string,
  applied: readonly OrderAmendment[],
  newEnd: string,
  today: string,
): Promise<UnderDisruption> {
  const disruption = await disruptionByRef(tx, ref);
  if (!disruption) throw invalid(`No disruption ${ref}; GET /disruptions lists them`).coded('DISRUPTION_NOT_FOUND');
  await tx.populate(order, ['route']);
  // Two extensions under one disruption share its days: they count from the end before the first.
  const baseEnd = applied
    .filter((amendment) => amendment.disruption?.id === disruption.id)
    .reduce(
      (end, amendment) => (amendment.previousCoverageEndDate < end ? amendment.previousCoverageEndDate : end),
      order.coverageEndDate,
    );
  const summary = {
    ref: disruption.disruptionRef,
    area: disruption.area,
    startsOn: disruption.startsOn,
    lastDay: lastDayOf(disruption),
    maxDays: disruption.maxDays,
  };
  const refusal = disruptionExtensionRefusal({
    orderRef: order.orderRef,
    disruption: summary,
    routeArea: order.route?.area ?? null,
    routeName: order.route?.name ?? order.customRouteName ?? 'no route',
    baseEnd,
    newEnd,
  });
  if (refusal) throw invalid(refusal.message).coded(refusal.code);
  return {
    disruption,
    refusalNow: disruptionEndedRefusal({ ...summary, ended: disruptionStatus(disruption, today) === 'ENDED' }),
  };
}

/** The days the order's applied extensions gave free under disruptions: a paid extension does not charge them. */
export const freeDaysOf = (applied: readonly OrderAmendment[]): number =>
  applied.reduce(
    (days, amendment) =>
      amendment.disruption
        ? days + freeDaysBetween(amendment.previousCoverageEndDate, amendment.coverageEndDate)
        : days,
    0,
  );
