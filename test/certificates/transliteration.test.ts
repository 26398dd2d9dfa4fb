import { transliteration } from '../../src/modules/certificates/rules/transliteration';
import { certificateContent, renderedCertificate } from '../support/certificate-fixtures';
import { readPdf } from '../support/certificate-pdf';

describe("a non-Latin name's transliteration", () => {
  it.each([
    ['Devanagari', 'सीता शर्मा', 'Sita Sharma'],
    ['Devanagari, a final consonant', 'राम बहादुर थापा', 'Ram Bahadur Thapa'],
    ['Cyrillic', 'Иван Петров', 'Ivan Petrov'],
    ['Cyrillic, digraphs', 'Юлия Щукина', 'Iuliia Shchukina'],
    ['Greek, accents dropped', 'Γιώργος Παπαδόπουλος', 'Giorgos Papadopoulos'],
  ])('reads %s letter by letter into Latin: %s is %s', (_script, name, latin) => {
    expect(transliteration(name)).toBe(latin);
  });

  it.each([
    ['Latin, which needs none', 'Sophie Keller'],
    ['Chinese (a dictionary would be needed)', '王小明'],
    ['Arabic (vowels are not written)', 'محمد علي'],
    ['Hebrew (vowels are not written)', 'דוד כהן'],
    ['Korean', '김민준'],
    ['Thai', 'สมชาย ใจดี'],
  ])('guesses nothing for %s', (_script, name) => {
    expect(transliteration(name)).toBeUndefined();
  });
});

describe('the certificate of a non-Latin name without a name as in passport', () => {
  it('prints the transliteration on the line after the name, marked as transliterated and not as in passport', async () => {
    const name = 'सीता शर्मा';
    const read = await readPdf(
      await renderedCertificate(
        certificateContent(name, {
          traveller: {
            name,
            transliteratedName: 'Sita Sharma',
            dateOfBirth: '1991-03-14',
            nationality: 'Nepal',
            idType: 'PASSPORT',
            maskedIdNumber: '••••••T47',
          },
        }),
        'transliterated',
      ),
    );
    const items = read.pages[0]?.items ?? [];
    const label = items.find((item) => item.text.startsWith('Name in Latin letters'));
    const value = items.find((item) => item.text.startsWith('Sita Sharma (transliterated, not as in passport)'));
    const birth = items.find((item) => item.text.startsWith('Date of birth'));
    if (!label || !value || !birth) throw new Error(`no transliterated name: ${read.pages[0]?.text}`);
    expect(Math.abs(label.y - value.y)).toBeLessThan(3);
    expect(birth.y).toBeGreaterThan(value.y);
    expect(read.text).not.toContain('Name as in passport');
  });
});
