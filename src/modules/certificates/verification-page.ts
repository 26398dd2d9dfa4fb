import { escapeHtml } from '../../kernel/http/html';
import type { Verification } from './policy-verification';
import type { PolicyStanding } from './rules/policy-standing';

/**
 * The public verification page a trekking checkpoint opens from the certificate's QR code: plain
 * HTML with inline styles (the strict CSP allows nothing else), no script, readable on a phone.
 * It says NOT YET IN FORCE, VALID, EXPIRED or CANCELLED, the coverage window, the Nepal date it
 * was checked on, the altitude covered and the initials; for an
 * unknown or malformed number only that it was not found.
 */
export function verificationPage(verification: Verification, issuer: string, assistancePhone: string): string {
  // The way to help in every state, and never a word about any case (issue 39: the page is public).
  const help = `<p class="small">Trekker in trouble? Open a case through your agency or call ${escapeHtml(assistancePhone)} (24 hours).</p>`;
  if (!verification.found) {
    return page('Policy not found', 'unknown', [
      '<h1>Policy not found</h1>',
      '<p>No policy has this number. Check the number printed on the certificate, or scan its QR code again.</p>',
      help,
    ], issuer);
  }
  const state = STATES[verification.standing];
  const explanation = state.explain(verification);
  return page(`${state.title}: ${verification.policyNumber}`, state.tone, [
    `<p class="number">Policy ${escapeHtml(verification.policyNumber)}</p>`,
    `<h1>${escapeHtml(state.headline(verification))}</h1>`,
    `<p class="verdict">${escapeHtml(explanation)}</p>`,
    '<dl>',
    `<dt>Coverage window</dt><dd>${escapeHtml(verification.coverageStartDate)} to ${escapeHtml(verification.coverageEndDate)}</dd>`,
    `<dt>Checked on</dt><dd>${escapeHtml(verification.today)} (Nepal date)</dd>`,
    `<dt>Maximum altitude covered</dt><dd>${verification.maxAltitude.toLocaleString('en-US')} m</dd>`,
    `<dt>Traveller</dt><dd>${escapeHtml(verification.travellerInitials)}</dd>`,
    '</dl>',
    '<p class="small">Compare the initials with the traveller\'s passport. Only the initials are shown here, to protect the traveller\'s privacy.</p>',
    help,
  ], issuer);
}

type Found = Extract<Verification, { found: true }>;

/**
 * Each state in its own words and colour, the words in capitals and large, so that a checkpoint
 * reading the page at a glance cannot take a policy that starts next week for one that covers
 * today: amber "NOT YET IN FORCE — from <date>", green "VALID", grey "EXPIRED", red "CANCELLED".
 */
const STATES: Record<PolicyStanding, { title: string; tone: keyof typeof TONES; headline: (v: Found) => string; explain: (v: Found) => string }> = {
  NOT_YET_IN_FORCE: {
    title: 'Not yet in force',
    tone: 'pending',
    headline: (v) => `NOT YET IN FORCE — from ${v.coverageStartDate}`,
    explain: (v) => `This policy is paid but does not cover today: its cover begins on ${v.coverageStartDate}.`,
  },
  VALID: { title: 'Valid', tone: 'valid', headline: () => 'VALID', explain: (v) => `This policy covers today, until ${v.coverageEndDate} included.` },
  EXPIRED: { title: 'Expired', tone: 'expired', headline: () => 'EXPIRED', explain: (v) => `The cover of this policy ended on ${v.coverageEndDate}.` },
  CANCELLED: { title: 'Cancelled', tone: 'invalid', headline: () => 'CANCELLED', explain: () => 'This policy was cancelled: it covers nothing.' },
  NOT_PAID: { title: 'Not in force', tone: 'invalid', headline: () => 'NOT IN FORCE', explain: () => 'This policy is not in force.' },
};

/** The answer to a client address over its limit of lookups. */
export function tooManyLookupsPage(retryAfterSeconds: number, issuer: string): string {
  return page('Too many lookups', 'unknown', [
    '<h1>Too many lookups</h1>',
    `<p>This device has checked too many policies in a short time. Try again in ${retryAfterSeconds} seconds.</p>`,
  ], issuer);
}

/** Green, amber, grey, red: told apart by their words too, for a reader who cannot tell the colours. */
const TONES = { valid: '#0b6b3a', pending: '#a35d00', expired: '#5f6b76', invalid: '#a1261b', unknown: '#4a5560' } as const;

function page(title: string, tone: keyof typeof TONES, body: string[], issuer: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>',
    'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Devanagari",sans-serif;background:#f3f5f6;color:#1b2733;line-height:1.45}',
    'main{max-width:30rem;margin:0 auto;padding:1.25rem}',
    `.card{background:#fff;border-radius:.75rem;border-top:.5rem solid ${TONES[tone]};padding:1.25rem 1.25rem .75rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}`,
    `h1{margin:.25rem 0 .5rem;font-size:2rem;line-height:1.2;color:#fff;background:${TONES[tone]};border-radius:.4rem;padding:.35rem .6rem}`,
    '.number{margin:0;font-weight:600;letter-spacing:.02em;color:#4a5560}',
    'dl{margin:1rem 0;display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}',
    'dt{color:#4a5560}dd{margin:0;font-weight:600}',
    '.small{font-size:.85rem;color:#4a5560}',
    'footer{margin-top:1rem;font-size:.8rem;color:#4a5560;text-align:center}',
    '</style></head>',
    `<body><main><div class="card">${body.join('')}</div>`,
    `<footer>Policy verification by ${escapeHtml(issuer)}</footer></main></body></html>`,
  ].join('');
}
