import { csvCell, csvRow } from '../../src/kernel/csv';

describe('a cell of the order book CSV', () => {
  it('is quoted when it holds a semicolon, so a spreadsheet splitting on ";" keeps it whole and its formula guard holds', () => {
    expect(csvCell('Annapurna; =HYPERLINK("http://evil.example")')).toBe(
      '"Annapurna; =HYPERLINK(""http://evil.example"")"',
    );
    expect(csvRow(['ORD-2026-000001', 'a;b', 'plain'])).toBe('ORD-2026-000001,"a;b",plain\r\n');
  });

  it('keeps the comma, quote and formula rules', () => {
    expect(csvCell('Keller, "Sophie"')).toBe('"Keller, ""Sophie"""');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('@SUM(A1;A2)')).toBe(`"'@SUM(A1;A2)"`);
    expect(csvCell(null)).toBe('');
  });
});
