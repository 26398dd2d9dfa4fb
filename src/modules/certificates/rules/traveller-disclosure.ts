/**
 * How much of a traveller a policy document shows. The certificate goes to the traveller and to
 * whoever they hand it to (a permit office, a rescue operator), so it names them in full but
 * shows only the end of their passport number: enough to match the passport in hand, not enough
 * to copy it. The public verification page is opened by anyone holding a policy number, so it
 * shows the initials alone.
 */

const MASK = '•';

/**
 * The last characters of an identity document number, the rest masked: three of seven or more,
 * fewer of a shorter one, so that at least four characters always stay hidden.
 */
export function maskedIdNumber(idNumber: string): string {
  const characters = [...idNumber.trim()];
  const visible = Math.min(3, Math.max(0, characters.length - 4));
  return MASK.repeat(characters.length - visible) + characters.slice(characters.length - visible).join('');
}

/**
 * "S. S." for "Sita Sharma", "स. श." for "सीता शर्मा": the first letter of the first and of the
 * last word of the name. Middle names are left out: two letters confirm a name read from a
 * passport, more would help guess it. A double-barrelled surname keeps both its parts
 * ("A. K.-S." for "Anna Keller-Schmidt"): its second part alone would name another family.
 */
export function travellerInitials(name: string): string {
  const words = name
    .trim()
    .split(/[\s,.]+/u)
    .filter((word) => /\p{L}/u.test(word));
  const [first, ...others] = words;
  if (first === undefined) return '';
  const last = others[others.length - 1];
  const initials = [`${firstLetter(first)}.`];
  if (last !== undefined) {
    initials.push(
      last
        .split(/[-‐]+/u)
        .filter((part) => /\p{L}/u.test(part))
        .map((part) => `${firstLetter(part)}.`)
        .join('-'),
    );
  }
  return initials.join(' ');
}

/** The first letter (not a combining vowel sign or virama) of a word, upper-cased where the script has case. */
function firstLetter(word: string): string {
  const letter = [...word].find((character) => /\p{L}/u.test(character)) ?? '';
  return letter.toLocaleUpperCase('en');
}
