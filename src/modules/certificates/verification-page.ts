import { escapeHtml } from '../../kernel/http/html';
import type { Verification } from './policy-verification';

/**
 * The public verification page a trekking checkpoint opens from the certificate's QR code: plain
 * HTML with inline styles (the strict CSP allows nothing else), no script, readable on a phone.
 * It says VALID or NOT VALID, the coverage window, the altitude covered and the initials; for an
 * unknown or malformed number only that it was not found.
 */
export function verificationPage(verification: Verification, issuer: string): string {
  if (!verification.found) {
    return page('Policy not found', 'unknown', [
      '<h1>Policy not found</h1>',
      '<p>No policy has this number. Check the number printed on the certificate, or scan its QR code again.</p>',
    ], issuer);
  }
  const { standing } = verification;
  const verdict = standing.valid ? 'Valid' : 'Not valid';
  const explanation = standing.valid
    ? standing.coverStarted
      ? 'This policy is in force.'
      : `This policy is paid; its cover begins on ${verification.coverageStartDate}.`
    : NOT_VALID_REASONS[standing.reason];
  return page(`${verdict}: ${verification.policyNumber}`, standing.valid ? 'valid' : 'invalid', [
    `<p class="number">Policy ${escapeHtml(verification.policyNumber)}</p>`,
    `<h1>${verdict}</h1>`,
    `<p>${escapeHtml(explanation)}</p>`,
    '<dl>',
    `<dt>Coverage window</dt><dd>${escapeHtml(verification.coverageStartDate)} to ${escapeHtml(verification.coverageEndDate)}</dd>`,
    `<dt>Maximum altitude covered</dt><dd>${verification.maxAltitude.toLocaleString('en-US')} m</dd>`,
    `<dt>Traveller</dt><dd>${escapeHtml(verification.travellerInitials)}</dd>`,
    '</dl>',
    '<p class="small">Compare the initials with the traveller\'s passport. Only the initials are shown here, to protect the traveller\'s privacy.</p>',
  ], issuer);
}

const NOT_VALID_REASONS: Record<'CANCELLED' | 'COVER_ENDED' | 'NOT_PAID', string> = {
  CANCELLED: 'This policy was cancelled.',
  COVER_ENDED: 'The coverage window of this policy is over.',
  NOT_PAID: 'This policy is not in force.',
};

/** The answer to a client address over its limit of lookups. */
export function tooManyLookupsPage(retryAfterSeconds: number, issuer: string): string {
  return page('Too many lookups', 'unknown', [
    '<h1>Too many lookups</h1>',
    `<p>This device has checked too many policies in a short time. Try again in ${retryAfterSeconds} seconds.</p>`,
  ], issuer);
}

const TONES = { valid: '#0b6b3a', invalid: '#a1261b', unknown: '#4a5560' } as const;

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
    `h1{margin:.25rem 0 .5rem;font-size:2rem;color:${TONES[tone]}}`,
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
