import { kathmanduToday } from '../../../kernel/business-date';

/** A change of the departure after the policy was issued, as the audit log keeps it. */
export interface DepartureAmendment {
  at: Date;
  departureFrom: string;
  departureTo: string;
}

/** An extension of the cover applied after the policy was issued (decision record 0099). */
export interface ExtensionAmendment {
  at: Date;
  coverEndFrom: string;
  coverEndTo: string;
}

/** Each amendment after payment makes a new certificate version. */
export type Amendment = DepartureAmendment | ExtensionAmendment;

/** What the version line says moved: the departure, or the cover's end. */
type AmendedChange = Omit<DepartureAmendment, 'at'> | Omit<ExtensionAmendment, 'at'>;

/**
 * Which certificate this is. The first is version 1, issued on the Nepal date of payment; each
 * date change after payment makes the next version, which keeps that issue date (the cover was
 * bought then) and says when it was amended and what moved. A change before payment is not an
 * amendment: the policy was issued with the new dates.
 */
export interface CertificateVersion {
  number: number;
  issuedOn: string;
  /** The last amendment, when there is one. */
  amended?: { on: string } & AmendedChange;
}

export function certificateVersion(paidAt: Date, changes: readonly Amendment[]): CertificateVersion {
  const amendments = changes.filter((change) => change.at > paidAt).sort((a, b) => a.at.getTime() - b.at.getTime());
  const last = amendments[amendments.length - 1];
  const issuedOn = kathmanduToday(paidAt);
  if (!last) return { number: 1, issuedOn };
  return {
    number: amendments.length + 1,
    issuedOn,
    amended: { on: kathmanduToday(last.at), ...changeOf(last) },
  };
}

function changeOf(amendment: Amendment): AmendedChange {
  return 'coverEndFrom' in amendment
    ? { coverEndFrom: amendment.coverEndFrom, coverEndTo: amendment.coverEndTo }
    : { departureFrom: amendment.departureFrom, departureTo: amendment.departureTo };
}

/**
 * "Version 2, amended 2026-12-02: departure moved from 2026-10-01 to 2026-10-05", or for an
 * extension "Version 2, amended 2026-12-02: cover extended from 2026-10-07 to 2026-10-10".
 */
export function versionLine(version: CertificateVersion): string {
  const { amended } = version;
  if (!amended) return `Version ${version.number}`;
  const change =
    'coverEndFrom' in amended
      ? `cover extended from ${amended.coverEndFrom} to ${amended.coverEndTo}`
      : `departure moved from ${amended.departureFrom} to ${amended.departureTo}`;
  return `Version ${version.number}, amended ${amended.on}: ${change}`;
}

/** `POL-2026-000087.pdf` for the first version, `POL-2026-000087-v2.pdf` after: a saved amended copy does not overwrite the first. */
export function certificateFileName(policyNumber: string, version: CertificateVersion): string {
  return version.number === 1 ? `${policyNumber}.pdf` : `${policyNumber}-v${version.number}.pdf`;
}
