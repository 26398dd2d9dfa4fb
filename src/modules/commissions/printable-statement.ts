import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../partners/entities/company';
import type { CommissionPeriod } from './rules/commission-period';
import type { StatementFonts } from './statement-fonts';
import type { StatementLine } from './statement-rows';
import { readStatement } from './statement-export';
import { insurerPanNumber } from './settings';

export interface PrintSettings {
  /** The insurer's name, printed at the head of every statement. */
  issuer: string;
  currency: string;
  fonts: StatementFonts;
}

/** Lines handed to the renderer at a time: it lays out a batch, then yields to other requests. */
const RENDER_BATCH = 2_000;

/**
 * A company's statement of a period as a PDF stream: for the partner's `Accept: application/pdf` and
 * the operator's `--pdf`. Every row is read first and the connection given back before the first
 * page is laid out: rendering and a slow reader hold memory, never a database connection (decision
 * record 0094; the partner's request is rate limited per company, see handlers.ts).
 */
export async function printableStatement(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  settings: PrintSettings,
): Promise<PDFKit.PDFDocument> {
  const company = await em.findOneOrFail(Company, companyId);
  const { totals, lines } = await readStatement(em, companyId, period);
  // PDFKit loads with the first statement printed, not with every start.
  const { renderStatementPdf } = await import('./statement-pdf.js');
  return renderStatementPdf(
    {
      ...totals,
      issuer: settings.issuer,
      issuerPan: insurerPanNumber(),
      companyId: company.id,
      companyName: company.name,
      companyPan: company.panNumber ?? null,
      currency: settings.currency,
    },
    inBatches(lines),
    settings.fonts,
  );
}

async function* inBatches(lines: StatementLine[]): AsyncGenerator<StatementLine[]> {
  for (let start = 0; start < lines.length; start += RENDER_BATCH) yield lines.slice(start, start + RENDER_BATCH);
}
