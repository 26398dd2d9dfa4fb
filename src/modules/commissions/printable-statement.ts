import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../partners/entities/company';
import type { CommissionPeriod } from './rules/commission-period';
import type { StatementFonts } from './statement-fonts';
import { openStatement } from './statement-export';
import { insurerPanNumber } from './settings';

export interface PrintSettings {
  /** The insurer's name, printed at the head of every statement. */
  issuer: string;
  currency: string;
  fonts: StatementFonts;
}

/** A company's statement of a period as a PDF stream: for the partner's `Accept: application/pdf` and the operator's `--pdf`. */
export async function printableStatement(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  settings: PrintSettings,
): Promise<PDFKit.PDFDocument> {
  const company = await em.findOneOrFail(Company, companyId);
  // PDFKit loads with the first statement printed, not with every start; before the snapshot, which holds a connection until read.
  const { renderStatementPdf } = await import('./statement-pdf.js');
  const { totals, batches } = await openStatement(em, companyId, period);
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
    batches,
    settings.fonts,
  );
}
