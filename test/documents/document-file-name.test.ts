import { MAX_FILE_NAME_LENGTH, sanitiseFileName } from '../../src/modules/documents/rules/document-file-name';

describe('sanitiseFileName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(sanitiseFileName('passport scan.pdf')).toBe('passport scan.pdf');
    expect(sanitiseFileName('Pásport_Ñepal-2026.JPG')).toBe('Pásport_Ñepal-2026.JPG');
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\anna\\Desktop\\visa.pdf', 'visa.pdf'],
    ['/var/www/html/shell.php.png', 'shell.php.png'],
  ])('keeps only the last segment of a path (%s)', (raw, expected) => {
    expect(sanitiseFileName(raw)).toBe(expected);
  });

  it('removes control characters and bidirectional overrides that disguise an extension', () => {
    expect(sanitiseFileName('photo\u0000.png')).toBe('photo.png');
    expect(sanitiseFileName('line\r\nbreak.png')).toBe('linebreak.png');
    expect(sanitiseFileName('invoice\u202Egnp.exe')).toBe('invoicegnp.exe');
  });

  it('neutralises characters that are unsafe in file names and collapses whitespace', () => {
    expect(sanitiseFileName('a<b>:c"d|e?f*.png')).toBe('a_b__c_d_e_f_.png');
    expect(sanitiseFileName('  my \t  avatar .png ')).toBe('my avatar .png');
  });

  it('drops leading dots so a name can never be hidden or point upwards', () => {
    expect(sanitiseFileName('..hidden.png')).toBe('hidden.png');
    expect(sanitiseFileName('..')).toBe('document');
  });

  it('falls back to "document" when nothing usable is left', () => {
    expect(sanitiseFileName(undefined)).toBe('document');
    expect(sanitiseFileName('')).toBe('document');
    expect(sanitiseFileName('\u0001\u0002/')).toBe('document');
  });

  it('cuts an absurdly long name, keeping its extension', () => {
    const name = sanitiseFileName(`${'a'.repeat(5000)}.pdf`);
    expect([...name]).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});
