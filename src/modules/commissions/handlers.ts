import { successBody } from '../../kernel/http/envelope';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { pageRequest, springPage } from '../../kernel/http/pagination';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { commissionStatement } from './commission-statement';
import { statementCsv } from './statement-export';
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
        stream: statementCsv(scope.em, companyId, params.period),
      };
    }
    if (accepts(headers.accept, PDF)) {
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

/** Nothing beyond the kernel's defaults: a statement reads one company's own rows. */
export const commissionPolicies = {} satisfies OperationPolicies;
