import fs from 'node:fs';
import path from 'node:path';
import { GLOSSARY } from '../../src/modules/certificates/glossary';

const RECORD = path.join(
  __dirname,
  '../../docs/decisions/0104-the-certificate-and-the-verify-page-in-english-and-nepali.md',
);

/** The rows of the record's glossary table: key, English, Nepali. */
function recordTable(): Array<[string, string, string]> {
  const text = fs.readFileSync(RECORD, 'utf8');
  const section = text.split(/^## The glossary$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [key = '', english = '', nepali = ''] = line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim());
      return [key.replace(/`/g, ''), english, nepali];
    });
}

describe('the Nepali words of the certificate and the verify page', () => {
  it('are, entry for entry, the glossary of decision record 0104: none added, changed or left out in the code', () => {
    const inCode = Object.entries(GLOSSARY).map(([key, term]) => [key, term.en, term.ne]);
    expect(recordTable()).toEqual(inCode);
  });

  it('are written in Devanagari, each entry with the same blanks to fill as its English term', () => {
    for (const [key, term] of Object.entries(GLOSSARY)) {
      expect([key, /[\u0900-\u097f]/.test(term.ne)]).toEqual([key, true]);
      const blanks = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
      expect([key, blanks(term.ne)]).toEqual([key, blanks(term.en)]);
    }
  });
});
