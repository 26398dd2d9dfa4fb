import { escapeHtml } from '../../kernel/http/html';
import { amountFromMinor } from '../../kernel/money';
import { statedRouteCover } from './rules/route-endorsement';
import type { CheckCodeResult, RouteOnPage, Verification } from './policy-verification';
import type { PolicyStanding } from './rules/policy-standing';
import { term, type Language, type TermKey } from './glossary';

/**
 * The public verification page a trekking checkpoint opens from the certificate's QR code: plain
 * HTML with inline styles (the strict CSP allows nothing else), no script, readable on a phone.
 * It says NOT YET IN FORCE, VALID, EXPIRED or CANCELLED (with its date), the coverage window, the
 * Nepal date it was checked on, the altitude covered and the underwriter; the initials only when
 * the link carried the check code. Every page, found or not, ends with the 24-hour assistance
 * number, so that an officer holding a doubtful certificate has someone to call. An unknown number
 * is named back (escaped) when it has the form of one, for the officer to compare with the paper.
 */
export function verificationPage(
  verification: Verification,
  site: VerificationSite,
  language: Language = 'en',
): string {
  const t = (key: TermKey, values?: Record<string, string | number>) => term(key, language, values);
  if (!verification.found) {
    const lookedUp = verification.lookedUp
      ? `<p>No policy has the number <strong>${escapeHtml(verification.lookedUp)}</strong>. Check it against the number printed on the certificate, or scan its QR code again.</p>`
      : '<p>What was looked up is not a policy number (they read POL-year-number, such as POL-2026-000087). Check the number printed on the certificate, or scan its QR code again.</p>';
    return page(
      t('policyNotFound'),
      'unknown',
      [`<h1>${t('policyNotFound')}</h1>`, lookedUp, `<p>${t('notFoundInvalid')}</p>`],
      site,
      language,
    );
  }
  const state = STATES[verification.standing];
  const explanation = state.explain(verification, language);
  const unlocked = verification.travellerInitials !== undefined || verification.noLatinName === true;
  // The page's sentences about the traveller and the typed code are said in English only (decision record 0104).
  const traveller = verification.noLatinName
    ? `<dt>${t('traveller')}</dt><dd>No name in Latin letters on record: the agency gave no name as in the passport. Compare the date of birth and the end of the passport number printed on the certificate.</dd>`
    : verification.travellerInitials === undefined
      ? `<dt>${t('traveller')}</dt><dd>Shown with the check code printed beside the QR code: scan the code on the certificate, or type it below.</dd>`
      : `<dt>${t('traveller')}</dt><dd>${escapeHtml(verification.travellerInitials)}</dd>`;
  return page(
    `${t(state.title)}: ${verification.policyNumber}`,
    state.tone,
    [
      `<p class="number">${t('policy')} ${escapeHtml(verification.policyNumber)}</p>`,
      `<h1>${state.headline(verification, language)}</h1>`,
      `<p class="verdict">${explanation}</p>`,
      versionNote(verification, language),
      '<dl>',
      `<dt>${t('coverageWindow')}</dt><dd>${t('coverageWindowDates', { start: date(verification.coverageStartDate), end: date(verification.coverageEndDate) })}</dd>`,
      `<dt>${t('checkedOn')}</dt><dd>${t('checkedOnDate', { date: date(verification.today) })}</dd>`,
      `<dt>${t('route')}</dt><dd>${routeText(verification.route, verification.maxAltitude, language)}</dd>`,
      `<dt>${t('maximumAltitude')}</dt><dd>${metres(verification.maxAltitude)}</dd>`,
      `<dt>${t('helicopterEvacuation')}</dt><dd>${evacuationText(verification.evacuationLimit, language)}</dd>`,
      `<dt>${t('underwriter')}</dt><dd>${escapeHtml(verification.underwriter)}</dd>`,
      traveller,
      '</dl>',
      !unlocked
        ? checkCodeForm(verification.policyNumber, verification.checkCode, language)
        : verification.noLatinName
          ? ''
          : '<p class="small">Compare the initials with the traveller\'s passport. Only the initials are shown here, to protect the traveller\'s privacy.</p>',
    ],
    site,
    language,
  );
}

/** A date never breaks across lines, however narrow the phone: half a date misreads as another one. */
const date = (value: string) => `<span class="date">${escapeHtml(value)}</span>`;

const metres = (value: number) => `<span class="date">${value.toLocaleString('en-US')} m</span>`;

/** The route an officer can compare with the trekker's permit: a registered one with its altitude, or the partner's words. */
function routeText(route: RouteOnPage, maxAltitude: number, language: Language): string {
  switch (route.kind) {
    case 'REGISTERED':
      return `${escapeHtml(route.name)} (${metres(route.maxAltitude)})`;
    case 'AS_STATED':
      return `${statedRouteCover(escapeHtml(route.name), metres(maxAltitude))} (the route as stated by the partner)`;
    case 'ANY_REGISTERED':
      return term('anyRegisteredRoute', language, { altitude: metres(maxAltitude) });
  }
}

/** A rescue operator deciding whether to fly asks first whether the evacuation is covered, and up to what. */
function evacuationText(limit: number | undefined, language: Language): string {
  if (limit === undefined) return term('evacuationNotIncluded', language);
  const amount = amountFromMinor(limit).toLocaleString('en-US', { maximumFractionDigits: 2 });
  return term('evacuationIncluded', language, { amount: `<span class="date">NPR ${amount}</span>` });
}

/** Which paper is the right one: an amended policy's earlier certificates are superseded. */
function versionNote(verification: Found, language: Language): string {
  const amended = verification.amendedOn
    ? `<p class="amended">Amended on ${date(verification.amendedOn)}: the cover dates were changed after the policy was issued.${verification.lastChange ? ` Version ${verification.version}: ${escapeHtml(verification.lastChange)}.` : ''}</p>`
    : '';
  const earlier = verification.version - 1;
  const superseded =
    earlier === 0
      ? ''
      : ` ${earlier === 1 ? 'Version 1 is' : `Versions 1 to ${earlier} are`} superseded: a certificate that prints an earlier version no longer holds.`;
  // The paper in the officer's hand is an earlier version when its check code is (decision record 0100).
  const held =
    verification.supersededVersion === undefined
      ? ''
      : `<p class="mismatch" role="alert">The check code typed is that of certificate version ${verification.supersededVersion}, which is superseded by version ${verification.version}: the dates on that paper are no longer the policy's. The current ones are below.</p>`;
  const current = term('currentVersion', language, { number: verification.version });
  return `${amended}<p class="version">${current}${superseded}</p>${held}`;
}

/**
 * The check code printed on paper can be typed in (a GET form back to this page), and a wrong one
 * is said to be wrong instead of silently showing less.
 */
function checkCodeForm(policyNumber: string, result: CheckCodeResult, language: Language): string {
  const mismatch =
    result === 'MISMATCHED'
      ? '<p class="mismatch" role="alert">This check code does not match this policy. Type the code printed beside the QR code on the certificate; a certificate whose code never matches is not valid.</p>'
      : '';
  return [
    mismatch,
    `<form class="code" method="get" action="/verify/${encodeURIComponent(policyNumber)}">`,
    // The typed code keeps the page's language.
    language === 'en' ? '' : `<input type="hidden" name="lang" value="${language}">`,
    `<label for="code">${term('checkCodeLabel', language)}</label>`,
    '<input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="16" required>',
    `<button type="submit">${term('check', language)}</button>`,
    '</form>',
  ].join('');
}

type Found = Extract<Verification, { found: true }>;

/**
 * Each state in its own words and colour (HTML: dates are kept whole), the words in capitals and large, so that a checkpoint
 * reading the page at a glance cannot take a policy that starts next week for one that covers
 * today: amber "NOT YET IN FORCE — from <date>", green "VALID", grey "EXPIRED", red "CANCELLED".
 */
const STATES: Record<
  PolicyStanding,
  {
    title: TermKey;
    tone: keyof typeof TONES;
    headline: (v: Found, language: Language) => string;
    explain: (v: Found, language: Language) => string;
  }
> = {
  NOT_YET_IN_FORCE: {
    title: 'notYetInForce',
    tone: 'pending',
    headline: (v, language) => term('notYetInForceFrom', language, { date: date(v.coverageStartDate) }),
    explain: (v, language) => term('notYetInForceExplained', language, { date: date(v.coverageStartDate) }),
  },
  VALID: {
    title: 'valid',
    tone: 'valid',
    headline: (_, language) => headline(term('valid', language)),
    explain: (v, language) => term('validExplained', language, { date: date(v.coverageEndDate) }),
  },
  EXPIRED: {
    title: 'expired',
    tone: 'expired',
    headline: (_, language) => headline(term('expired', language)),
    explain: (v, language) => term('expiredExplained', language, { date: date(v.coverageEndDate) }),
  },
  CANCELLED: {
    title: 'cancelled',
    tone: 'invalid',
    headline: (v, language) =>
      v.cancelledOn
        ? term('cancelledOn', language, { date: date(v.cancelledOn) })
        : headline(term('cancelled', language)),
    explain: (v, language) =>
      v.cancelledOn
        ? term('cancelledOnExplained', language, { date: date(v.cancelledOn) })
        : term('cancelledExplained', language),
  },
  NOT_PAID: {
    title: 'notInForce',
    tone: 'invalid',
    headline: (_, language) => headline(term('notInForce', language)),
    explain: (_, language) => term('notInForceExplained', language),
  },
};

/** The verdict in capitals (Devanagari has none: the same words). */
const headline = (words: string) => words.toUpperCase();

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
  language: Language = 'en',
): string {
  return [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8">`,
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
    // On a phone the labels stand above their values: a value column a third of 390 pixels wide broke dates.
    '@media (max-width:30rem){dl{grid-template-columns:1fr;gap:0}dt{margin-top:.5rem}}',
    '.date{white-space:nowrap}',
    '.version{margin:.25rem 0;font-size:.9rem}',
    '.mismatch{margin:.75rem 0 .25rem;padding:.5rem .75rem;border-left:.3rem solid #a1261b;background:#fdecea;color:#7a1b12;font-weight:600}',
    '.code{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0}.code label{flex-basis:100%;color:#4a5560}',
    '.code input{font:inherit;font-size:1.1rem;letter-spacing:.1em;text-transform:uppercase;padding:.35rem .5rem;width:9rem;border:1px solid #8a96a0;border-radius:.3rem}',
    '.code button{font:inherit;padding:.4rem .9rem;border:0;border-radius:.3rem;background:#1b2733;color:#fff}',
    '.small{font-size:.85rem;color:#4a5560}',
    '.assistance{margin:1rem 0 0;padding:.75rem 1rem;background:#fff;border-radius:.5rem;font-weight:600;text-align:center}',
    '.assistance a{white-space:nowrap}',
    'footer{margin-top:1rem;font-size:.8rem;color:#4a5560;text-align:center}',
    '.specimen{margin:0 0 1rem;padding:.75rem 1rem;background:repeating-linear-gradient(-45deg,#fde2e0,#fde2e0 .6rem,#fff .6rem,#fff 1.2rem);border:.2rem solid #c0392b;border-radius:.5rem;color:#8e1b10;font-size:1.05rem;text-align:center}',
    '</style></head>',
    `<body><main>${specimen ? SPECIMEN_BANNER : ''}<div class="card">${body.join('')}</div>`,
    // The way to help in every state, and never a word about any case (issue 39: the page is public).
    `<p class="assistance">${term('assistanceLine', language)} <a href="tel:${escapeHtml(assistancePhone.replace(/[^+\d]/g, ''))}">${escapeHtml(assistancePhone)}</a></p>`,
    `<footer>${term('verificationBy', language, { issuer: escapeHtml(issuer) })}</footer></main></body></html>`,
  ].join('');
}
