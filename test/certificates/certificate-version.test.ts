import {
  certificateFileName,
  certificateVersion,
  versionLine,
} from '../../src/modules/certificates/rules/certificate-version';

describe("the certificate's version", () => {
  const paidAt = new Date('2030-09-20T08:24:39Z');

  it('is version 1, issued on the Nepal date of payment, for an order never amended', () => {
    const version = certificateVersion(paidAt, []);
    expect(version).toEqual({ number: 1, issuedOn: '2030-09-20' });
    expect(versionLine(version)).toBe('Version 1');
    expect(certificateFileName('POL-2030-000087', version)).toBe('POL-2030-000087.pdf');
  });

  it('counts each date change after payment, keeps the original issue date, and names the last change on its Nepal date', () => {
    const version = certificateVersion(paidAt, [
      { at: new Date('2030-09-25T10:00:00Z'), departureFrom: '2030-10-01', departureTo: '2030-10-03' },
      // 20:30 UTC is already the next day in Kathmandu (UTC+05:45).
      { at: new Date('2030-09-27T20:30:00Z'), departureFrom: '2030-10-03', departureTo: '2030-10-05' },
    ]);
    expect(version).toEqual({
      number: 3,
      issuedOn: '2030-09-20',
      amended: { on: '2030-09-28', departureFrom: '2030-10-03', departureTo: '2030-10-05' },
    });
    expect(versionLine(version)).toBe('Version 3, amended 2030-09-28: departure moved from 2030-10-03 to 2030-10-05');
    expect(certificateFileName('POL-2030-000087', version)).toBe('POL-2030-000087-v3.pdf');
  });

  it('stays version 1 when the dates moved before the order was paid: the policy was issued with the new dates', () => {
    expect(
      certificateVersion(paidAt, [
        { at: new Date('2030-09-19T10:00:00Z'), departureFrom: '2030-10-01', departureTo: '2030-10-03' },
      ]),
    ).toEqual({ number: 1, issuedOn: '2030-09-20' });
  });
});
