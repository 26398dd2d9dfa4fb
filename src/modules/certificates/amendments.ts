import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../orders/entities/audit-entry';
import type { Order } from '../orders/entities/order';
import type { Amendment, CoverWindow } from './rules/certificate-version';

interface OrderDates {
  departureDate?: string;
  coverageStartDate?: string;
  coverageEndDate?: string;
}

/**
 * The amendments made after payment, oldest first, from the audit log: the departure changes, the
 * applied extensions of the cover (decision record 0099) and a name as in the passport added
 * after issue (decision record 0103). Each says what changed in words and
 * the coverage window before and after, so that the certificate lists them whatever their kind
 * (decision record 0100).
 */
export async function amendmentsOf(em: EntityManager, order: Order, paidAt: Date): Promise<Amendment[]> {
  const entries = await em.find(
    AuditEntry,
    {
      order: order.id,
      action: { $in: ['DEPARTURE_CHANGED', 'COVER_EXTENDED', 'PASSPORT_NAME_ADDED'] },
      at: { $gt: paidAt },
    },
    { orderBy: { at: 'asc' } },
  );
  return entries.map((entry) => {
    const details = entry.details as AmendmentDetails;
    return {
      at: entry.at,
      change: changeOf(entry.action, details, order),
      ...(entry.action === 'COVER_EXTENDED' ? { publicChange: extensionTo(details, order) } : {}),
      windowBefore: windowOf(details.previous),
      windowAfter: windowOf(details.current),
    };
  });
}

function windowOf(dates: OrderDates | undefined): CoverWindow | undefined {
  return dates?.coverageStartDate && dates.coverageEndDate
    ? { start: dates.coverageStartDate, end: dates.coverageEndDate }
    : undefined;
}

interface AmendmentDetails {
  previous?: OrderDates;
  current?: OrderDates;
  /** The disruption an extension was made under (decision record 0102). */
  disruption?: { disruptionId: string; area: string };
  /** A passport name replaced rather than added (decision record 0103). */
  corrected?: boolean;
}

/**
 * "departure moved from X to Y", "cover extended from X to Y", "cover extended under the Lukla
 * disruption D-2026-0001 from X to Y" or "name as in passport added", as the version line prints it.
 */
function changeOf(action: string, details: AmendmentDetails, order: Order): string {
  // The name itself is on the certificate, never in the amendment's words (decision record 0103).
  if (action === 'PASSPORT_NAME_ADDED')
    return details.corrected ? 'name as in passport corrected' : 'name as in passport added';
  if (action === 'COVER_EXTENDED')
    return `${extensionUnder(details)} from ${details.previous?.coverageEndDate ?? ''} to ${details.current?.coverageEndDate ?? order.coverageEndDate}`;
  return `departure moved from ${details.previous?.departureDate ?? ''} to ${details.current?.departureDate ?? order.departureDate}`;
}

/** An area code in words: `LUKLA` is "Lukla", `SOUTH_COL` "South Col". */
const areaName = (area: string): string =>
  area
    .split('_')
    .map((word) => word.charAt(0) + word.slice(1).toLowerCase())
    .join(' ');

/** "cover extended", or "cover extended under the Lukla disruption D-2026-0001". */
const extensionUnder = (details: AmendmentDetails): string =>
  details.disruption
    ? `cover extended under the ${areaName(details.disruption.area)} disruption ${details.disruption.disruptionId}`
    : 'cover extended';

/** "cover extended ... to Y", without the end it had. */
const extensionTo = (details: AmendmentDetails, order: Order): string =>
  `${extensionUnder(details)} to ${details.current?.coverageEndDate ?? order.coverageEndDate}`;
