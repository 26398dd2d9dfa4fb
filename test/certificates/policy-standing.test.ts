import {
  canonicalPolicyNumber,
  isInsuredStatus,
  policyStanding,
} from '../../src/modules/certificates/rules/policy-standing';

const window = { coverageStartDate: '2026-10-01', coverageEndDate: '2026-10-16' };

describe('whether a policy covers its traveller on a Kathmandu date', () => {
  it('is VALID from the first to the last day of a paid window, both included', () => {
    for (const today of ['2026-10-01', '2026-10-08', '2026-10-16'])
      expect(policyStanding({ status: 'PAID', ...window }, today)).toBe('VALID');
  });

  it('is NOT_YET_IN_FORCE before the window opens (bought ahead of the trek), up to the day before', () => {
    expect(policyStanding({ status: 'PAID', ...window }, '2026-09-20')).toBe('NOT_YET_IN_FORCE');
    expect(policyStanding({ status: 'PAID', ...window }, '2026-09-30')).toBe('NOT_YET_IN_FORCE');
  });

  it('is EXPIRED from the day after the window ends', () => {
    expect(policyStanding({ status: 'PAID', ...window }, '2026-10-17')).toBe('EXPIRED');
  });

  it('is CANCELLED once the order is cancelled, whatever the date', () => {
    for (const today of ['2026-09-20', '2026-10-05', '2026-12-01'])
      expect(policyStanding({ status: 'CANCELLED', ...window }, today)).toBe('CANCELLED');
  });

  it('counts a completed or closed order as paid, and nothing else', () => {
    expect(policyStanding({ status: 'COMPLETED', ...window }, '2026-10-05')).toBe('VALID');
    expect(policyStanding({ status: 'CLOSED', ...window }, '2026-10-05')).toBe('VALID');
    expect(policyStanding({ status: 'PENDING', ...window }, '2026-10-05')).toBe('NOT_PAID');
    expect(['PENDING', 'PAID', 'COMPLETED', 'CLOSED', 'CANCELLED'].filter(isInsuredStatus)).toEqual([
      'PAID',
      'COMPLETED',
      'CLOSED',
    ]);
  });
});

describe('a policy number as typed from the paper certificate', () => {
  it('is the printed number whatever the case, the spaces or the dashes', () => {
    for (const typed of [
      'POL-2026-000087',
      'pol-2026-000087',
      ' POL 2026 000087 ',
      'POL 2026-000087',
      'pol – 2026 – 000087',
      'POL‐2026‐000087',
      'POL2026 000087',
    ]) {
      expect(canonicalPolicyNumber(typed)).toBe('POL-2026-000087');
    }
  });

  it('leaves anything else for the lookup to find nothing', () => {
    expect(canonicalPolicyNumber(' ord-2026-000001 ')).toBe('ORD-2026-000001');
    expect(canonicalPolicyNumber("POL' OR 1=1 --")).not.toMatch(/^POL-\d{4}-\d+$/);
  });
});
