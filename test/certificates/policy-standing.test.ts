import { isInsuredStatus, policyStanding } from '../../src/modules/certificates/rules/policy-standing';

const window = { coverageStartDate: '2026-10-01', coverageEndDate: '2026-10-16' };

describe('whether a policy is valid on a Kathmandu date', () => {
  it('is valid and in force from the first to the last day of a paid window, both included', () => {
    for (const today of ['2026-10-01', '2026-10-08', '2026-10-16']) {
      expect(policyStanding({ status: 'PAID', ...window }, today)).toEqual({ valid: true, coverStarted: true });
    }
  });

  it('is valid before the window opens (bought ahead of the trek), with cover not yet started', () => {
    expect(policyStanding({ status: 'PAID', ...window }, '2026-09-20')).toEqual({ valid: true, coverStarted: false });
  });

  it('is not valid the day after the window ends', () => {
    expect(policyStanding({ status: 'PAID', ...window }, '2026-10-17')).toEqual({ valid: false, reason: 'COVER_ENDED' });
  });

  it('is not valid once the order is cancelled, whatever the date', () => {
    expect(policyStanding({ status: 'CANCELLED', ...window }, '2026-10-05')).toEqual({ valid: false, reason: 'CANCELLED' });
  });

  it('counts a completed or closed order as paid, and nothing else', () => {
    expect(policyStanding({ status: 'COMPLETED', ...window }, '2026-10-05').valid).toBe(true);
    expect(policyStanding({ status: 'CLOSED', ...window }, '2026-10-05').valid).toBe(true);
    expect(policyStanding({ status: 'PENDING', ...window }, '2026-10-05')).toEqual({ valid: false, reason: 'NOT_PAID' });
    expect(['PENDING', 'PAID', 'COMPLETED', 'CLOSED', 'CANCELLED'].filter(isInsuredStatus)).toEqual(['PAID', 'COMPLETED', 'CLOSED']);
  });
});
