/**
 * A Latin transliteration of a traveller's name for an officer who reads only Latin, printed when
 * the partner gave no `nameAsInPassport` and marked "(transliterated, not as in passport)": a
 * passport's Latin name follows its issuing country's rules, which a table cannot know, so this is
 * a reading aid, never the passport's spelling (decision record 0100).
 *
 * Only scripts a letter-by-letter table renders readably: Cyrillic (Russian letters, close to
 * ICAO 9303), Greek (close to ELOT 743) and Devanagari (consonants with their inherent "a",
 * vowel signs, virama; close to the Nepali passport's spellings without diacritics). Chinese,
 * Japanese and Korean need a dictionary or a syllable model, and Arabic and Hebrew write few
 * vowels: for them, and for any name with a letter outside the tables, the answer is undefined
 * and nothing is guessed. Latin (`isLatin`) needs none.
 */
export function transliteration(name: string): string | undefined {
  if (isLatin(name)) return undefined;
  const out: string[] = [];
  const characters = [...name.normalize('NFC')];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index] ?? '';
    const lower = character.toLowerCase();
    const upper = character !== lower;
    const devanagari = DEVANAGARI_CONSONANTS[character];
    if (devanagari !== undefined) {
      const next = characters[index + 1] ?? '';
      const sign = DEVANAGARI_VOWEL_SIGNS[next];
      if (next === VIRAMA) index++;
      else if (sign !== undefined) index++;
      // A word's last consonant drops its inherent "a" in Nepali and Hindi names (शर्मा, राम -> Ram).
      const wordEnds = !/[\u0900-\u097f]/u.test(next);
      out.push(devanagari + (next === VIRAMA ? '' : (sign ?? (wordEnds ? '' : 'a'))));
      continue;
    }
    // Greek writes "u" as ου (Παπαδόπουλος -> Papadopoulos), the one digraph read here.
    if (bare(lower) === 'ο' && bare((characters[index + 1] ?? '').toLowerCase()) === 'υ') {
      out.push(upper ? 'Ou' : 'ou');
      index++;
      continue;
    }
    const mapped = DEVANAGARI_OTHERS[character] ?? CYRILLIC[lower] ?? GREEK[bare(lower)];
    if (mapped !== undefined) {
      out.push(upper && mapped.length > 0 ? mapped.charAt(0).toUpperCase() + mapped.slice(1) : mapped);
      continue;
    }
    if (/[\s\-'.,]/u.test(character)) {
      out.push(character);
      continue;
    }
    return undefined;
  }
  // A Devanagari name has no case: each word starts with a capital, as a passport prints it.
  return out
    .join('')
    .replace(/(^|[\s-])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** A letter without its accents (Greek tonos and dialytika). */
function bare(character: string): string {
  return character.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Latin letters (with their diacritics), marks, spaces and punctuation only. */
export function isLatin(name: string): boolean {
  // Every letter Latin; digits, marks and punctuation say nothing about the script.
  return !/(?!\p{Script=Latin})\p{L}/u.test(name);
}

const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: 'ie',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
  і: 'i',
  ї: 'i',
  є: 'ie',
  ґ: 'g',
  ў: 'u',
};

/** Greek letters without their accents (the caller strips them). */
const GREEK: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

const VIRAMA = '\u094d';

const DEVANAGARI_CONSONANTS: Record<string, string> = {
  क: 'k',
  ख: 'kh',
  ग: 'g',
  घ: 'gh',
  ङ: 'ng',
  च: 'ch',
  छ: 'chh',
  ज: 'j',
  झ: 'jh',
  ञ: 'ny',
  ट: 't',
  ठ: 'th',
  ड: 'd',
  ढ: 'dh',
  ण: 'n',
  त: 't',
  थ: 'th',
  द: 'd',
  ध: 'dh',
  न: 'n',
  प: 'p',
  फ: 'ph',
  ब: 'b',
  भ: 'bh',
  म: 'm',
  य: 'y',
  र: 'r',
  ल: 'l',
  व: 'v',
  श: 'sh',
  ष: 'sh',
  स: 's',
  ह: 'h',
};

const DEVANAGARI_VOWEL_SIGNS: Record<string, string> = {
  'ा': 'a',
  'ि': 'i',
  'ी': 'i',
  'ु': 'u',
  'ू': 'u',
  'ृ': 'ri',
  'े': 'e',
  'ै': 'ai',
  'ो': 'o',
  'ौ': 'au',
};

const DEVANAGARI_OTHERS: Record<string, string> = {
  अ: 'a',
  आ: 'a',
  इ: 'i',
  ई: 'i',
  उ: 'u',
  ऊ: 'u',
  ऋ: 'ri',
  ए: 'e',
  ऐ: 'ai',
  ओ: 'o',
  औ: 'au',
  'ं': 'n',
  'ँ': 'n',
  'ः': 'h',
  '़': '',
};
