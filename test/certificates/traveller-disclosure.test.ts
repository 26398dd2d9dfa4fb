import { passportNameInReadingOrder, printedPassportName } from '../../src/modules/certificates/rules/passport-name';
import { maskedIdNumber, travellerInitials } from '../../src/modules/certificates/rules/traveller-disclosure';

describe('what a policy document shows of the traveller', () => {
  it('masks all of a passport number but its last three characters, so it matches the passport in hand and cannot be copied', () => {
    expect(maskedIdNumber('N1234567')).toBe('•••••567');
    expect(maskedIdNumber('C01X00T47')).toBe('••••••T47');
  });

  it('keeps at least four characters hidden in a short number', () => {
    expect(maskedIdNumber('AB12345')).toBe('••••345');
    expect(maskedIdNumber('12345')).toBe('••••5');
    expect(maskedIdNumber('1234')).toBe('••••');
  });

  it('gives the initials of the first and last name only, upper-cased', () => {
    expect(travellerInitials('Sophie Keller')).toBe('S. K.');
    expect(travellerInitials('sophie anna maria keller')).toBe('S. K.');
    expect(travellerInitials('  Jean-Luc   Picard ')).toBe('J. P.');
    expect(travellerInitials('Łukasz Żółć')).toBe('Ł. Ż.');
    expect(travellerInitials('Madonna')).toBe('M.');
  });

  it('gives Devanagari initials as the first letter of each word, without its vowel sign', () => {
    expect(travellerInitials('सीता शर्मा')).toBe('स. श.');
    expect(travellerInitials('राम बहादुर थापा')).toBe('र. थ.');
    expect(travellerInitials('क्षितिज')).toBe('क.');
  });

  it('keeps both parts of a double-barrelled surname, not the second alone', () => {
    expect(travellerInitials('Anna Keller-Schmidt')).toBe('A. K.-S.');
    expect(travellerInitials('ANNA KELLER-SCHMIDT')).toBe('A. K.-S.');
  });

  it("reads a name as in the passport's machine-readable zone given names first, the surname last", () => {
    expect(travellerInitials(passportNameInReadingOrder('TAN<<MEI<LIN'))).toBe('M. T.');
    expect(travellerInitials(passportNameInReadingOrder('KELLER<SCHMIDT<<ANNA'))).toBe('A. K.-S.');
    expect(travellerInitials(passportNameInReadingOrder('MEI LIN TAN'))).toBe('M. T.');
    expect(printedPassportName('TAN<<MEI<LIN')).toBe('TAN, MEI LIN');
    expect(printedPassportName('MEI LIN TAN')).toBe('MEI LIN TAN');
  });

  it('gives nothing for a name without letters', () => {
    expect(travellerInitials('  -- ')).toBe('');
  });
});
