/**
 * What a person's name must be beyond the schema's refusal of controls (decision record 0093):
 * something a reader sees, with no invisible character the name's script does not need, and no
 * pile of combining marks drawn over its neighbours. The certificate and the desk print it.
 */

/** Letters that draw nothing: the Hangul fillers, the Khmer inherent vowels, the blank Braille cell. */
const BLANK_LETTERS = /\u115F|\u1160|\u17B4|\u17B5|\u2800|\u3164|\uFFA0/gu;

/** A character a reader sees: a letter, digit, punctuation or symbol (the blank letters taken out first). */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * The scripts whose spelling needs ZERO WIDTH (NON-)JOINER between two of their letters: the
 * Indic scripts (half forms, conjuncts), Arabic (Persian, Urdu, Kurdish), Syriac, N'Ko, Mongolian.
 */
const JOINING_SCRIPT =
  /[\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}]/u;

const JOINERS = new Set(['\u200C', '\u200D']);

/** SOFT HYPHEN: an invisible break hint, which no name needs. */
const SOFT_HYPHEN = '\u00AD';

/** Most combining marks in a row: Tibetan's deepest stacks and Vietnamese's two tones fit; Zalgo text does not. */
export const MAX_COMBINING_MARKS = 6;

const COMBINING_MARKS_RUN = new RegExp(`\\p{M}{${MAX_COMBINING_MARKS + 1},}`, 'u');

/** Why `name` is not a name a reader can see and trust, or undefined. */
export function nameTextProblem(name: string): string | undefined {
  const text = name.normalize('NFC');
  if (!VISIBLE.test(text.replace(BLANK_LETTERS, ''))) return 'must contain a visible character';
  if (text.includes(SOFT_HYPHEN)) return 'must not contain a soft hyphen (U+00AD)';
  const characters = [...text];
  const misplaced = characters.findIndex(
    (character, index) =>
      JOINERS.has(character) &&
      !(JOINING_SCRIPT.test(characters[index - 1] ?? '') && JOINING_SCRIPT.test(characters[index + 1] ?? '')),
  );
  if (misplaced >= 0)
    return 'must not contain a zero-width joiner or non-joiner (U+200C, U+200D) except between two letters of a script that uses it (Devanagari, Arabic ...)';
  if (COMBINING_MARKS_RUN.test(text))
    return `must not stack more than ${MAX_COMBINING_MARKS} combining marks on one character`;
  return undefined;
}
