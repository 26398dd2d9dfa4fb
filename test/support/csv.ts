/** An RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF rows. Fails on anything else. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i += 1;
      continue;
    }
    if (char === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else if (char === '\n' || char === '\r') {
      throw new Error(`a bare line break at ${i}`);
    } else field += char;
    i += 1;
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || row.length > 0) throw new Error('the last row has no CRLF');
  return rows;
}

/** The rows after the header as objects keyed by the header's names. */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [header = [], ...rows] = parseCsv(text);
  return {
    header,
    records: rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']))),
  };
}
