import type { EntityManager } from '@mikro-orm/postgresql';
import { Quote, QuoteStatus } from './entities/quote';
import { notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { StoredQuote } from './quoting';
import { businessNow } from '../../kernel/business-today';

export interface QuoteReadback {
  quote: StoredQuote;
  ctg: { id: string; code: string; name: string; insuranceCompany: string };
  route: { id: string; name: string } | null;
}

/**
 * GET /reference/quote/{quoteId}: a quote of the caller's company as its creation answered it.
 * An ACTIVE quote past `expiresAt` reads EXPIRED, as order creation judges it. Another
 * company's quote is a 404 like an unknown id: its existence is nobody else's business.
 */
export async function readQuote(
  em: EntityManager,
  principal: Principal,
  quoteId: string,
  now = businessNow(),
): Promise<QuoteReadback> {
  const quote = await em.findOne(
    Quote,
    { id: quoteId.toLowerCase(), company: principal.companyId },
    { populate: ['ctg', 'route'] },
  );
  if (!quote) throw notFound(`Quote ${quoteId} not found`);
  const status = quote.status === QuoteStatus.Active && quote.expiresAt <= now ? QuoteStatus.Expired : quote.status;
  return {
    // The entity's own fields (StoredQuote picks them), its status as of now.
    quote: { ...quote, status },
    ctg: { id: quote.ctg.id, code: quote.ctg.code, name: quote.ctg.name, insuranceCompany: quote.ctg.insuranceCompany },
    route: quote.route ? { id: quote.route.id, name: quote.route.name } : null,
  };
}
