import { claimDecision } from '../../src/modules/webhooks/rules/delivery-claim';

const pending = { status: 'PENDING', jobId: 'job-1', leased: false, companyInFlight: 0 };

describe('what a delivery job does with its delivery', () => {
  it('sends it while its company has fewer deliveries in flight than the cap', () => {
    expect(claimDecision(pending, 'job-1', 2)).toBe('CLAIM');
    expect(claimDecision({ ...pending, jobId: null, companyInFlight: 1 }, 'job-1', 2)).toBe('CLAIM');
  });

  it('goes back to the queue untried when its company is at the cap, or past it', () => {
    expect(claimDecision({ ...pending, companyInFlight: 2 }, 'job-1', 2)).toBe('NO_SLOT');
    expect(claimDecision({ ...pending, companyInFlight: 3 }, 'job-1', 2)).toBe('NO_SLOT');
  });

  it('takes no slot for a delivery it would not send: done, gone, replaced by a retry by hand, or being sent', () => {
    const full = { companyInFlight: 5 };
    expect(claimDecision({ ...pending, ...full, status: 'SUCCEEDED' }, 'job-1', 2)).toBe('NOT_DUE');
    expect(claimDecision(undefined, 'job-1', 2)).toBe('NOT_DUE');
    expect(claimDecision({ ...pending, ...full, jobId: 'job-2' }, 'job-1', 2)).toBe('NOT_DUE');
    expect(claimDecision({ ...pending, ...full, leased: true }, 'job-1', 2)).toBe('RETRY');
  });
});
