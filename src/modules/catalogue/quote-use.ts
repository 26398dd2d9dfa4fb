import { QuoteStatus, type Quote } from './entities/quote';

/**
 * The quote an order is made from is USED, in the order's transaction: catalogue writes its own
 * rows (decision record 0111).
 */
export function markQuoteUsed(quote: Quote): void {
  quote.status = QuoteStatus.Used;
}
