import { escapeHtml } from '../../kernel/http/html';
import { amountFromMinor } from '../../kernel/money';
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
      ? `<p>${t('noPolicyNumbered', { policyNumber: `<strong>${escapeHtml(verification.lookedUp)}</strong>` })}</p>`
      : `<p>${t('notAPolicyNumber')}</p>`;
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
  // Every sentence of the page is a glossary entry, in the page's language (decision records 0104 and 0109).
  const traveller = verification.noLatinName
    ? `<dt>${t('traveller')}</dt><dd>${t('noLatinNameOnRecord')}</dd>`
    : verification.travellerInitials === undefined
      ? `<dt>${t('traveller')}</dt><dd>${t('travellerShownWithCode')}</dd>`
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
          : `<p class="small">${t('compareInitials')}</p>`,
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
      return term('routeAsStatedOnPage', language, { route: escapeHtml(route.name), altitude: metres(maxAltitude) });
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
  const t = (key: TermKey, values?: Record<string, string | number>) => term(key, language, values);
  // The change itself ("departure moved from … to …") is the amendment's record, as it was written.
  const change = verification.lastChange
    ? ` ${t('lastChange', { number: verification.version, change: escapeHtml(verification.lastChange) })}`
    : '';
  const amended = verification.amendedOn
    ? `<p class="amended">${t('amendedOn', { date: date(verification.amendedOn) })}${change}</p>`
    : '';
  const earlier = verification.version - 1;
  const superseded =
    earlier === 0 ? '' : ` ${earlier === 1 ? t('versionOneSuperseded') : t('versionsSuperseded', { earlier })}`;
  // The paper in the officer's hand is an earlier version when its check code is (decision record 0100).
  const held =
    verification.supersededVersion === undefined
      ? ''
      : `<p class="mismatch" role="alert">${t('supersededCodeTyped', { typed: verification.supersededVersion, current: verification.version })}</p>`;
  const current = t('currentVersion', { number: verification.version });
  return `${amended}<p class="version">${current}${superseded}</p>${held}`;
}

/**
 * The check code printed on paper can be typed in (a GET form back to this page), and a wrong one
 * is said to be wrong instead of silently showing less.
 */
function checkCodeForm(policyNumber: string, result: CheckCodeResult, language: Language): string {
  const mismatch =
    result === 'MISMATCHED' ? `<p class="mismatch" role="alert">${term('checkCodeMismatch', language)}</p>` : '';
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
export function tooManyLookupsPage(
  retryAfterSeconds: number,
  site: VerificationSite,
  language: Language = 'en',
): string {
  return page(
    term('tooManyLookups', language),
    'unknown',
    [
      `<h1>${term('tooManyLookups', language)}</h1>`,
      `<p>${term('tooManyLookupsExplained', language, { seconds: retryAfterSeconds })}</p>`,
    ],
    site,
    language,
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

/**
 * Above the card, on every page of a sandbox: a checkpoint shown a sandbox's VALID must not take it
 * for cover. SPECIMEN — NOT INSURANCE stays in English on a Nepali page too (decision record 0097),
 * its Nepali words under it.
 */
function specimenBanner(language: Language): string {
  const mark =
    language === 'en'
      ? `<strong>${term('specimenMark', 'en')}</strong>`
      : `<strong>${term('specimenMark', 'en')}</strong><br><strong>${term('specimenMark', language)}</strong>`;
  return `<p class="specimen" role="alert">${mark}<br>${term('specimenPage', language)}</p>`;
}

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
    `<body><main>${specimen ? specimenBanner(language) : ''}<div class="card">${body.join('')}</div>`,
    // The way to help in every state, and never a word about any case (issue 39: the page is public).
    `<p class="assistance">${term('assistanceLine', language)} <a href="tel:${escapeHtml(assistancePhone.replace(/[^+\d]/g, ''))}">${escapeHtml(assistancePhone)}</a></p>`,
    `<footer>${term('verificationBy', language, { issuer: escapeHtml(issuer) })}</footer></main></body></html>`,
  ].join('');
}
