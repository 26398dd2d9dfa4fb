import { decimalStringFromMinor, type Minor } from '../../../kernel/money';

/**
 * When an assistance case may be billed into an evacuation claim (decision record 0101): it was
 * authorised (it is AUTHORISED, or COMPLETED or CLOSED after the evacuation), under a guarantee of
 * payment in rupees, not billed already, and a raised cap lies above the guarantee.
 */
export interface BillingFacts {
  caseRef: string;
  status: string;
  /** The desk authorised it at some point. */
  authorised: boolean;
  /** NPR paisa; null when the case carries no guarantee of payment. */
  guarantee: { costLimit: Minor; currency: string } | null;
  /** The claim that already bills this case (not withdrawn), if any. */
  billedBy: string | null;
  /** The desk's raised cap, NPR paisa. */
  raiseTo: Minor | null;
}

const BILLABLE = ['AUTHORISED', 'COMPLETED', 'CLOSED'];

/** Why the case cannot be billed, in words for the desk; null when it can. */
export function billingRefusal(facts: BillingFacts): string | null {
  if (!BILLABLE.includes(facts.status) || !facts.authorised)
    return `Assistance case ${facts.caseRef} is ${facts.status}; only a case the desk authorised (AUTHORISED, COMPLETED or CLOSED) can be billed`;
  if (!facts.guarantee)
    return `Assistance case ${facts.caseRef} has no guarantee of payment: the operator's invoice is the partner's claim to file`;
  if (facts.guarantee.currency !== 'NPR')
    return `Assistance case ${facts.caseRef}'s guarantee is in ${facts.guarantee.currency}; claims are assessed in NPR`;
  if (facts.billedBy)
    return `Assistance case ${facts.caseRef} is already billed as ${facts.billedBy} (withdraw that claim to bill it again)`;
  if (facts.raiseTo !== null && facts.raiseTo <= facts.guarantee.costLimit)
    return `--raise-to must be more than the guarantee's cost limit of NPR ${decimalStringFromMinor(facts.guarantee.costLimit)}`;
  return null;
}
