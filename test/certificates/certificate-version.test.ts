import {
  certificateFileName,
  certificateVersion,
  versionCheckCode,
  versionLine,
  versionOfCheckCode,
} from '../../src/modules/certificates/rules/certificate-version';

const moved = (at: string, from: string, to: string, before: [string, string], after: [string, string]) => ({
  at: new Date(at),
  change: `departure moved from ${from} to ${to}`,
  windowBefore: { start: before[0], end: before[1] },
  windowAfter: { start: after[0], end: after[1] },
});

describe("the certificate's version", () => {
  const paidAt = new Date('2030-09-20T08:24:39Z');
  const window = { start: '2030-10-01', end: '2030-10-16' };

  it('is version 1, issued on the Nepal date of payment, for an order never amended', () => {
    const version = certificateVersion(paidAt, [], window);
    expect(version).toEqual({
      number: 1,
      issuedOn: '2030-09-20',
      history: [{ number: 1, on: '2030-09-20', change: 'issued', window }],
    });
    expect(versionLine(version)).toBe('Version 1');
    expect(certificateFileName('POL-2030-000087', version)).toBe('POL-2030-000087.pdf');
  });

  it('counts each change after payment, keeps the original issue date, names the last change on its Nepal date, and lists every version with its window', () => {
    const version = certificateVersion(
      paidAt,
      [
        moved(
          '2030-09-25T10:00:00Z',
          '2030-10-01',
          '2030-10-03',
          ['2030-10-01', '2030-10-16'],
          ['2030-10-03', '2030-10-18'],
        ),
        // 20:30 UTC is already the next day in Kathmandu (UTC+05:45).
        moved(
          '2030-09-27T20:30:00Z',
          '2030-10-03',
          '2030-10-05',
          ['2030-10-03', '2030-10-18'],
          ['2030-10-05', '2030-10-20'],
        ),
      ],
      { start: '2030-10-05', end: '2030-10-20' },
    );
    expect(version).toEqual({
      number: 3,
      issuedOn: '2030-09-20',
      amended: { on: '2030-09-28', change: 'departure moved from 2030-10-03 to 2030-10-05' },
      history: [
        { number: 1, on: '2030-09-20', change: 'issued', window: { start: '2030-10-01', end: '2030-10-16' } },
        {
          number: 2,
          on: '2030-09-25',
          change: 'departure moved from 2030-10-01 to 2030-10-03',
          window: { start: '2030-10-03', end: '2030-10-18' },
        },
        {
          number: 3,
          on: '2030-09-28',
          change: 'departure moved from 2030-10-03 to 2030-10-05',
          window: { start: '2030-10-05', end: '2030-10-20' },
        },
      ],
    });
    expect(versionLine(version)).toBe('Version 3, amended 2030-09-28: departure moved from 2030-10-03 to 2030-10-05');
    expect(certificateFileName('POL-2030-000087', version)).toBe('POL-2030-000087-v3.pdf');
  });

  it('stays version 1 when the dates moved before the order was paid: the policy was issued with the new dates', () => {
    expect(
      certificateVersion(
        paidAt,
        [
          moved(
            '2030-09-19T10:00:00Z',
            '2030-10-01',
            '2030-10-03',
            ['2030-10-01', '2030-10-16'],
            ['2030-10-03', '2030-10-18'],
          ),
        ],
        window,
      ).number,
    ).toBe(1);
  });
});

describe("each version's check code", () => {
  it("is the policy's own code on version 1 and a code of its own on each later version, each one telling its version back", () => {
    const codes = [1, 2, 3].map((version) => versionCheckCode('7KQ2MX', version));
    expect(codes[0]).toBe('7KQ2MX');
    expect(new Set(codes).size).toBe(3);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(codes.map((code) => versionOfCheckCode('7KQ2MX', 3, code))).toEqual([1, 2, 3]);
    // Version 3's code is no code while the policy is at version 2, and another policy's codes are not this one's.
    expect(versionOfCheckCode('7KQ2MX', 2, codes[2] ?? '')).toBeUndefined();
    expect(versionOfCheckCode('7KQ2MY', 3, codes[1] ?? '')).toBeUndefined();
  });
});
