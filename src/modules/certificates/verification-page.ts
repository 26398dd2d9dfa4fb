import { escapeHtml } from '../../kernel/http/html';
import type { Verification } from './policy-verification';
import type { PolicyStanding } from './rules/policy-standing';

/**
 * The public verification page a trekking checkpoint opens from the certificate's QR code: plain
 * HTML with inline styles (the strict CSP allows nothing else), no script, readable on a phone.
 * It says NOT YET IN FORCE, VALID, EXPIRED or CANCELLED (with its date), the coverage window, the
 * Nepal date it was checked on, the altitude covered and the underwriter; the initials only when
 * the link carried the check code. Every page, found or not, ends with the 24-hour assistance
 * number, so that an officer holding a doubtful certificate has someone to call. An unknown number
 * is named back (escaped) when it has the form of one, for the officer to compare with the paper.
 */
export function verificationPage(verification: Verification, site: VerificationSite): string {
  if (!verification.found) {
    const lookedUp = verification.lookedUp
      ? `<p>No policy has the number <strong>${escapeHtml(verification.lookedUp)}</strong>. Check it against the number printed on the certificate, or scan its QR code again.</p>`
      : '<p>What was looked up is not a policy number (they read POL-year-number, such as POL-2026-000087). Check the number printed on the certificate, or scan its QR code again.</p>';
    return page(
      'Policy not found',
      'unknown',
      ['<h1>Policy not found</h1>', lookedUp, '<p>A certificate whose number is not found here is not valid.</p>'],
      site,
    );
  }
  const state = STATES[verification.standing];
  const explanation = state.explain(verification);
  const initials =
    verification.travellerInitials === undefined
      ? [
          '<dt>Traveller</dt><dd>Shown with the check code printed beside the QR code: scan the code on the certificate.</dd>',
        ]
      : [`<dt>Traveller</dt><dd>${escapeHtml(verification.travellerInitials)}</dd>`];
  return page(
    `${state.title}: ${verification.policyNumber}`,
    state.tone,
    [
      `<p class="number">Policy ${escapeHtml(verification.policyNumber)}</p>`,
      `<h1>${escapeHtml(state.headline(verification))}</h1>`,
      `<p class="verdict">${escapeHtml(explanation)}</p>`,
      verification.amendedOn
        ? `<p class="amended">Amended on ${escapeHtml(verification.amendedOn)}: the cover dates were changed after the policy was issued.</p>`
        : '',
      '<dl>',
      `<dt>Coverage window</dt><dd>${escapeHtml(verification.coverageStartDate)} to ${escapeHtml(verification.coverageEndDate)} (Nepal dates)</dd>`,
      `<dt>Checked on</dt><dd>${escapeHtml(verification.today)} (Nepal date)</dd>`,
      `<dt>Maximum altitude covered</dt><dd>${verification.maxAltitude.toLocaleString('en-US')} m</dd>`,
      `<dt>Underwriter</dt><dd>${escapeHtml(verification.underwriter)}</dd>`,
      ...initials,
      '</dl>',
      verification.travellerInitials === undefined
        ? ''
        : '<p class="small">Compare the initials with the traveller\'s passport. Only the initials are shown here, to protect the traveller\'s privacy.</p>',
    ],
    site,
  );
}

type Found = Extract<Verification, { found: true }>;

/**
 * Each state in its own words and colour, the words in capitals and large, so that a checkpoint
 * reading the page at a glance cannot take a policy that starts next week for one that covers
 * today: amber "NOT YET IN FORCE — from <date>", green "VALID", grey "EXPIRED", red "CANCELLED".
 */
const STATES: Record<
  PolicyStanding,
  { title: string; tone: keyof typeof TONES; headline: (v: Found) => string; explain: (v: Found) => string }
> = {
  NOT_YET_IN_FORCE: {
    title: 'Not yet in force',
    tone: 'pending',
    headline: (v) => `NOT YET IN FORCE — from ${v.coverageStartDate}`,
    explain: (v) => `This policy is paid but does not cover today: its cover begins on ${v.coverageStartDate}.`,
  },
  VALID: {
    title: 'Valid',
    tone: 'valid',
    headline: () => 'VALID',
    explain: (v) => `This policy covers today, until ${v.coverageEndDate} included.`,
  },
  EXPIRED: {
    title: 'Expired',
    tone: 'expired',
    headline: () => 'EXPIRED',
    explain: (v) => `The cover of this policy ended on ${v.coverageEndDate}: it covers nothing today.`,
  },
  CANCELLED: {
    title: 'Cancelled',
    tone: 'invalid',
    headline: (v) => (v.cancelledOn ? `CANCELLED on ${v.cancelledOn}` : 'CANCELLED'),
    explain: (v) => `This policy was cancelled${v.cancelledOn ? ` on ${v.cancelledOn}` : ''}: it covers nothing.`,
  },
  NOT_PAID: {
    title: 'Not in force',
    tone: 'invalid',
    headline: () => 'NOT IN FORCE',
    explain: () => 'This policy is not in force.',
  },
};

/**
 * The answer to a client address over its limit of lookups. The address may be a mobile carrier's,
 * shared by many phones (carrier-grade NAT): the page does not blame "this device".
 */
export function tooManyLookupsPage(retryAfterSeconds: number, site: VerificationSite): string {
  return page(
    'Too many lookups',
    'unknown',
    [
      '<h1>Too many lookups</h1>',
      `<p>Too many policies were checked from this network in a short time (a mobile network may share one address among many phones). Try again in ${retryAfterSeconds} seconds, or call the assistance number below.</p>`,
    ],
    site,
  );
}

/**
 * Green, amber, and two stop colours (EXPIRED crimson, CANCELLED red), unlike the slate of "not
 * found": an expired policy must not look like a page that merely found nothing. Told apart by
 * their words too, for a reader who cannot tell the colours.
 */
const TONES = {
  valid: '#0b6b3a',
  pending: '#a35d00',
  expired: '#9b1c47',
  invalid: '#a1261b',
  unknown: '#4a5560',
} as const;

/** What every page of the site says whatever the policy: who runs it, and whether it is a sandbox. */
export interface VerificationSite {
  issuer: string;
  /** The 24-hour assistance line, on every page. */
  assistancePhone: string;
  /** A sandbox's pages: nobody is insured, and every page says so above everything else. */
  specimen: boolean;
}

/** Above the card, on every page of a sandbox: a checkpoint shown a sandbox's VALID must not take it for cover. */
const SPECIMEN_BANNER =
  '<p class="specimen" role="alert"><strong>SPECIMEN — NOT INSURANCE</strong><br>This page comes from a test system. It shows no real policy: nobody is insured by it.</p>';

function page(
  title: string,
  tone: keyof typeof TONES,
  body: string[],
  { issuer, specimen, assistancePhone }: VerificationSite,
): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${specimen ? 'SPECIMEN — ' : ''}${escapeHtml(title)}</title>`,
    '<style>',
    'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari",sans-serif;background:#f3f5f6;color:#1b2733;line-height:1.45}',
    'main{max-width:30rem;margin:0 auto;padding:1.25rem}',
    `.card{background:#fff;border-radius:.75rem;border-top:.5rem solid ${TONES[tone]};padding:1.25rem 1.25rem .75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}`,
    `h1{margin:.25rem 0 .5rem;font-size:2rem;line-height:1.2;color:#fff;background:${TONES[tone]};border-radius:.4rem;padding:.35rem .6rem}`,
    '.number{margin:0;font-weight:600;letter-spacing:.02em;color:#4a5560}',
    'dl{margin:1rem 0;display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}',
    'dt{color:#4a5560}dd{margin:0;font-weight:600}',
    '.small{font-size:.85rem;color:#4a5560}',
    '.assistance{margin:1rem 0 0;padding:.75rem 1rem;background:#fff;border-radius:.5rem;font-weight:600;text-align:center}',
    'footer{margin-top:1rem;font-size:.8rem;color:#4a5560;text-align:center}',
    '.specimen{margin:0 0 1rem;padding:.75rem 1rem;background:repeating-linear-gradient(-45deg,#fde2e0,#fde2e0 .6rem,#fff .6rem,#fff 1.2rem);border:.2rem solid #c0392b;border-radius:.5rem;color:#8e1b10;font-size:1.05rem;text-align:center}',
    '</style></head>',
    `<body><main>${specimen ? SPECIMEN_BANNER : ''}<div class="card">${body.join('')}</div>`,
    // The way to help in every state, and never a word about any case (issue 39: the page is public).
    `<p class="assistance">Trekker in trouble? Open a case through your agency or call the 24-hour assistance line: <a href="tel:${escapeHtml(assistancePhone.replace(/[^+\d]/g, ''))}">${escapeHtml(assistancePhone)}</a></p>`,
    `<footer>Policy verification by ${escapeHtml(issuer)}</footer></main></body></html>`,
  ].join('');
}
