import { certificateVersion } from '../../src/modules/certificates/certificate';

describe('the certificate\'s version line', () => {
  const paidAt = new Date('2030-09-20T08:24:39Z');

  it('is "Issued" on the Nepal date of payment for an order never amended', () => {
    expect(certificateVersion(paidAt)).toEqual({ kind: 'Issued', date: '2030-09-20' });
  });

  it('is "Amended" on the Nepal date of the last date change after payment', () => {
    // 20:30 UTC is already the next day in Kathmandu (UTC+05:45).
    expect(certificateVersion(paidAt, new Date('2030-09-27T20:30:00Z'))).toEqual({ kind: 'Amended', date: '2030-09-28' });
  });

  it('stays "Issued" when the dates moved before the order was paid: the policy was issued with the new dates', () => {
    expect(certificateVersion(paidAt, new Date('2030-09-19T10:00:00Z'))).toEqual({ kind: 'Issued', date: '2030-09-20' });
  });
});
