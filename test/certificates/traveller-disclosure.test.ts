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

  it('gives nothing for a name without letters', () => {
    expect(travellerInitials('  -- ')).toBe('');
  });
});
