import { printableJson, printableLine, printableLines } from '../../src/cli/terminal-text';

describe('text the operator command line prints', () => {
  it('shows line breaks, tabs, ESC, OSC and C1 controls as visible escapes', () => {
    expect(printableLine('Anna\nstatus PAID')).toBe('Anna\\nstatus PAID');
    expect(printableLine('a\r\tb')).toBe('a\\r\\tb');
    expect(printableLine('\u001b[31mred\u001b[0m')).toBe('\\x1B[31mred\\x1B[0m');
    expect(printableLine('\u001b]0;pwned\u0007')).toBe('\\x1B]0;pwned\\x07');
    expect(printableLine('x\u009b2Jy\u007f\u0000')).toBe('x\\x9B2Jy\\x7F\\x00');
  });

  it('shows separators, bidirectional overrides and lone surrogates as \\u escapes', () => {
    expect(printableLine('a\u2028b\u202egnp.exe\u2066')).toBe('a\\u2028b\\u202Egnp.exe\\u2066');
    expect(printableLine('x\ud800y\udfff')).toBe('x\\uD800y\\uDFFF');
  });

  it('leaves printable text alone: accents, Devanagari with its joiners, emoji, backslashes', () => {
    for (const text of ['Zoë Müller-Łukasiewicz', 'राम बहादुर क्‍ष', '🏔️ Everest 8849 m', 'C:\\path', ''])
      expect(printableLine(text)).toBe(text);
  });

  it('escapes each line on its own, so a value cannot add a line', () => {
    expect(printableLines(['ORD-2026-000001  PENDING', '  traveller Anna\nORD-2026-000001  PAID'])).toBe(
      'ORD-2026-000001  PENDING\n  traveller Anna\\nORD-2026-000001  PAID',
    );
    expect(printableLines('one\ntwo')).toBe('one\\ntwo');
  });

  it('prints JSON that parses back to the same value, with nothing raw a terminal would act on', () => {
    const value = { name: 'Anna\n\u001b[2J\u009b\u202e\u2028' };
    const printed = printableJson(value);
    expect(JSON.parse(printed)).toEqual(value);
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u202e]/);
  });
});
