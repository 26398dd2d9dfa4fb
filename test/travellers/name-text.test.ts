import { MAX_COMBINING_MARKS, nameTextProblem } from '../../src/modules/travellers/rules/name-text';

describe('nameTextProblem', () => {
  it.each(['\u3164', '\u3164 \u3164', '\u115F\u1160', '\uFFA0', '\u2800', '\u0301\u0301'])(
    'refuses %j: nothing a reader sees',
    (name) => expect(nameTextProblem(name)).toBe('must contain a visible character'),
  );

  it.each(['Anna\u200DKeller', 'Anna\u200CKeller', '\u200Dक्ष', 'क्\u200D', 'क\u200D Keller'])(
    'refuses the joiners in %j: not between two letters of a script that spells with them',
    (name) => expect(nameTextProblem(name)).toContain('zero-width joiner or non-joiner'),
  );

  it.each(['क्\u200Dष', 'علی\u200Cرضا', 'ক্\u200Cষ', 'ᠮ\u200Dᠣ'])('accepts the joiner in %j', (name) =>
    expect(nameTextProblem(name)).toBeUndefined(),
  );

  it('refuses a soft hyphen anywhere', () => {
    expect(nameTextProblem('Kel\u00ADler')).toBe('must not contain a soft hyphen (U+00AD)');
  });

  it(`accepts ${MAX_COMBINING_MARKS} combining marks on one character and refuses one more`, () => {
    expect(nameTextProblem(`a${'\u0334'.repeat(MAX_COMBINING_MARKS)}`)).toBeUndefined();
    expect(nameTextProblem(`a${'\u0334'.repeat(MAX_COMBINING_MARKS + 1)}`)).toContain('combining marks');
  });

  it.each(['Nguyễn Thị Ánh', 'སྒྲུབ་', 'सीता शर्मा', '김민준', "O'Brien-Smith"])('accepts %j', (name) =>
    expect(nameTextProblem(name)).toBeUndefined(),
  );
});
