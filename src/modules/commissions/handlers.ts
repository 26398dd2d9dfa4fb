import { successBody } from '../../kernel/http/envelope';
import { callerOf, type RequestScope, type TagHandlers } from '../../kernel/http/request-scope';
import { companyBucket, refuseOverLimit } from '../../kernel/rate-limits/operation-limits';
import { pageRequest, springPage } from '../../kernel/http/pagination';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { commissionStatement } from './commission-statement';
import { exportStatementCsv } from './statement-export';
import { printableStatement } from './printable-statement';
import { commissionLineWire, periodSummaryWire } from './statement-wire';
import { periodsOf } from './statement-totals';

/** The statement is one request, asked for as CSV or PDF through `Accept` (as the order book's export). */
const accepts = (accept: string | undefined, type: RegExp) => accept !== undefined && type.test(accept);
const CSV = /(^|,)\s*text\/csv\s*(;|,|$)/i;
const PDF = /(^|,)\s*application\/pdf\s*(;|,|$)/i;

export const commissionHandlers = {
  async listCommissionStatements(_request, scope) {
    const periods = await periodsOf(scope.em, callerOf(scope).companyId);
    const currency = scope.services.config.currency;
    return {
      status: 200,
      body: successBody(
        periods.map((totals) => periodSummaryWire(totals, currency)),
        'Commission periods retrieved',
      ),
    };
  },

  async getCommissionStatement({ params, query, headers }, scope) {
    const { companyId } = callerOf(scope);
    const { config } = scope.services;
    const issuer = config.payments.merchantName;
    if (accepts(headers.accept, CSV)) {
      const disposition = `attachment; filename="commission-${params.period}.csv"`;
      return {
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': disposition },
        stream: await exportStatementCsv(scope.services.csvExports, companyId, params.period),
      };
    }
    if (accepts(headers.accept, PDF)) {
      await countStatementPdf(scope, companyId);
      return {
        status: 200,
        contentType: 'application/pdf',
        headers: { 'Content-Disposition': `attachment; filename="commission-${params.period}.pdf"` },
        stream: await printableStatement(scope.em, companyId, params.period, {
          issuer,
          currency: config.currency,
          fonts: scope.services.certificateFonts,
        }),
      };
    }
    const page = pageRequest(query.page, query.size);
    const statement = await commissionStatement(scope.em, companyId, params.period, page);
    return {
      status: 200,
      body: successBody(
        {
          ...periodSummaryWire(statement, config.currency),
          companyId: statement.company.id,
          companyName: statement.company.name,
          companyPan: statement.company.panNumber,
          issuer,
          issuerPan: statement.issuerPan,
          statementNumber: statement.statementNumber,
          lines: springPage(statement.lines.map(commissionLineWire), page, statement.lineCount),
        },
        'Commission statement retrieved',
      ),
    };
  },
} satisfies TagHandlers;

/**
 * The PDF costs seconds of CPU for a long month (12 parallel 63,000-line PDFs slowed every other
 * company's calls; decision record 0094): counted per company like the certificate, but only when a
 * PDF is asked for, so the JSON pages and the CSV (held by the export limit) are not.
 */
async function countStatementPdf(scope: RequestScope, companyId: string): Promise<void> {
  const { config, rateLimiter } = scope.services;
  const bucket = companyBucket('statement-pdf', companyId, config.rateLimits.statementPdfPerCompany);
  refuseOverLimit('getCommissionStatement', await rateLimiter.hit(scope.em, [bucket]), scope);
}

/** Nothing beyond the kernel's defaults: a statement reads one company's own rows (the PDF counts in its handler). */
export const commissionPolicies = {} satisfies OperationPolicies;
