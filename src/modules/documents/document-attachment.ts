import type { Document } from './entities/document';
import type { Traveller } from '../travellers/entities/traveller';

/**
 * A draft document becomes attached: to the traveller registered with it, or to the claim or
 * assistance case that keeps its own link to it. Documents writes its own rows (decision record
 * 0111); travellers, claims and assistance call this in their transaction.
 */
export function attachDocument(document: Document, at: Date, traveller?: Traveller): void {
  if (traveller) document.traveller = traveller;
  document.attachedAt = at;
}
