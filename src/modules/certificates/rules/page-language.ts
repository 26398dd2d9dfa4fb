import type { Language } from '../glossary';

/**
 * The verify page's language: `?lang=en` or `?lang=ne` when given, else Nepali when the reader's
 * `Accept-Language` ranks `ne` (or `ne-NP`) above English, else English (decision record 0104).
 */
export function pageLanguage(lang: string | undefined, acceptLanguage: string | undefined): Language {
  if (lang === 'ne' || lang === 'en') return lang;
  let best: { language: Language; quality: number } = { language: 'en', quality: 0 };
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [range = '', ...parameters] = part.trim().toLowerCase().split(';');
    const primary = range.split('-')[0];
    if (primary !== 'ne' && primary !== 'en') continue;
    const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    const quality = q === undefined ? 1 : Number(q);
    if (quality > best.quality) best = { language: primary, quality };
  }
  return best.language;
}
