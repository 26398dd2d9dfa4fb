/** A delivery as its company's claim sees it, under the company's claim lock. */
export interface ClaimableDelivery {
  status: string;
  /** The queue job the delivery names as its own (a retry by hand replaces it). */
  jobId: string | null;
  /** A try holds it now (or a process that died mid-send did, until the lease runs out). */
  leased: boolean;
  /** The company's deliveries being sent now, in every process. */
  companyInFlight: number;
}

/**
 * What a job does with its delivery: send it (CLAIM), end without sending because it is done or
 * no longer this job's (NOT_DUE), try again on the back-off because a try is running (RETRY), or
 * go back to the queue without a try because the company already has `perCompany` deliveries in
 * flight (NO_SLOT). The slot comes last: a delivery that would not be sent anyway takes none.
 */
export function claimDecision(
  delivery: ClaimableDelivery | undefined,
  jobId: string,
  perCompany: number,
): 'CLAIM' | 'NOT_DUE' | 'RETRY' | 'NO_SLOT' {
  if (delivery === undefined || (delivery.jobId !== null && delivery.jobId !== jobId) || delivery.status !== 'PENDING')
    return 'NOT_DUE';
  if (delivery.leased) return 'RETRY';
  return delivery.companyInFlight >= perCompany ? 'NO_SLOT' : 'CLAIM';
}
