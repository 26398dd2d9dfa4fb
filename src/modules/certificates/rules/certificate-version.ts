import { createHash } from 'node:crypto';
import { kathmanduToday } from '../../../kernel/business-date';

/** A coverage window, both Nepal dates included. */
export interface CoverWindow {
  start: string;
  end: string;
}

/**
 * A change of the cover after the policy was issued, as the audit log keeps it. Generic: a moved
 * departure is one kind, and any other kind of amendment says what changed in its own words.
 */
export interface Amendment {
  at: Date;
  /** What changed, in words: "departure moved from 2026-10-01 to 2026-10-03". */
  change: string;
  /**
   * What changed without the earlier dates, for the public verify page, which never prints a
   * window no longer in force ("cover extended under the Lukla disruption D-2026-0001 to
   * 2026-12-16"); absent when the page says no more than that the dates changed.
   */
  publicChange?: string;
  /** The coverage window before and after the change, when it changed it. */
  windowBefore?: CoverWindow;
  windowAfter?: CoverWindow;
}

/** One version of the certificate: version 1 is the issue with its original window, each later one an amendment. */
export interface VersionEntry {
  number: number;
  /** Nepal date of the issue or of the amendment. */
  on: string;
  /** "issued" for version 1, otherwise what the amendment changed. */
  change: string;
  /** The coverage window this version printed, when known. */
  window?: CoverWindow;
}

/**
 * Which certificate this is. The first is version 1, issued on the Nepal date of payment; each
 * change after payment makes the next version, which keeps that issue date (the cover was bought
 * then) and says when it was amended and what changed. A change before payment is not an
 * amendment: the policy was issued with the new dates. `history` lists every version, oldest
 * first, so that a reader holding any earlier paper finds it and what replaced it (decision record 0100).
 */
export interface CertificateVersion {
  number: number;
  issuedOn: string;
  /** The last amendment, when there is one. */
  amended?: { on: string; change: string };
  /** Every version, oldest first: version 1 with the window it was issued with, then each amendment. */
  history: VersionEntry[];
}

export function certificateVersion(
  paidAt: Date,
  changes: readonly Amendment[],
  currentWindow?: CoverWindow,
): CertificateVersion {
  const amendments = changes.filter((change) => change.at > paidAt).sort((a, b) => a.at.getTime() - b.at.getTime());
  const issuedOn = kathmanduToday(paidAt);
  const original = amendments[0]?.windowBefore ?? (amendments.length === 0 ? currentWindow : undefined);
  const history: VersionEntry[] = [
    { number: 1, on: issuedOn, change: 'issued', ...(original ? { window: original } : {}) },
    ...amendments.map((amendment, index) => ({
      number: index + 2,
      on: kathmanduToday(amendment.at),
      change: amendment.change,
      ...(amendment.windowAfter ? { window: amendment.windowAfter } : {}),
    })),
  ];
  const last = history[history.length - 1];
  if (!last || last.number === 1) return { number: 1, issuedOn, history };
  return { number: last.number, issuedOn, amended: { on: last.on, change: last.change }, history };
}

/** "Version 2, amended 2026-12-02: departure moved from 2026-10-01 to 2026-10-05". */
export function versionLine(version: CertificateVersion): string {
  const { amended } = version;
  if (!amended) return `Version ${version.number}`;
  return `Version ${version.number}, amended ${amended.on}: ${amended.change}`;
}

/** `POL-2026-000087.pdf` for the first version, `POL-2026-000087-v2.pdf` after: a saved amended copy does not overwrite the first. */
export function certificateFileName(policyNumber: string, version: Pick<CertificateVersion, 'number'>): string {
  return version.number === 1 ? `${policyNumber}.pdf` : `${policyNumber}-v${version.number}.pdf`;
}

/** Letters and digits a reader cannot confuse when typing it from paper (no 0/O, 1/I/L). */
export const CHECK_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * The check code printed on version `version` of a certificate. Version 1 prints the policy's own
 * code (papers printed before versions had codes of their own stay valid); each later version a
 * code derived from it, so that the code typed from a paper says which version that paper is and
 * the verify page can say it is superseded (decision record 0100). Derived by a hash of the
 * policy's secret code: nobody without a certificate of the policy can compute one.
 */
export function versionCheckCode(policyCode: string, version: number): string {
  if (version <= 1) return policyCode;
  const digest = createHash('sha256').update(`${policyCode}:v${version}`).digest();
  // 4 bytes per character: the bias of the modulo over 31 letters is under one in 100 million.
  return Array.from(
    { length: policyCode.length },
    (_, index) => CHECK_CODE_ALPHABET[digest.readUInt32BE(index * 4) % CHECK_CODE_ALPHABET.length],
  ).join('');
}

/** Which version's code `entered` is (normalised, upper case), among versions 1 to `current`; undefined when none. */
export function versionOfCheckCode(policyCode: string, current: number, entered: string): number | undefined {
  for (let version = current; version >= 1; version--)
    if (versionCheckCode(policyCode, version) === entered) return version;
  return undefined;
}
