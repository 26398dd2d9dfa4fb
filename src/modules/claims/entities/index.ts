import { Claim } from './claim';
import { ClaimDocument } from './claim-document';
import { ClaimEntry } from './claim-entry';
import { ClaimItem } from './claim-item';
import { ClaimItemDecision } from './claim-item-decision';
import { ClaimPayout } from './claim-payout';

/** The ORM entities this module owns, listed apart from its use cases so that src/database.ts loads only the tables. */
export const CLAIM_ENTITIES = [Claim, ClaimItem, ClaimItemDecision, ClaimEntry, ClaimDocument, ClaimPayout];
