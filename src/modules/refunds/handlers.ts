import { kathmanduToday } from '../../kernel/business-date';
import { successBody } from '../../kernel/http/envelope';
import { springPage } from '../../kernel/http/pagination';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { exportRefundBook, listRefundBook, refundOfCompany } from './refund-book';
import { REFUND_CSV_COLUMNS, refundCells, refundDetailWire } from './refund-wire';
import { answerSandboxRefund } from './sandbox-refund-outcome';
import { wantsCsv } from '../../kernel/csv';

export const refundHandlers = {
  async listRefunds({ query, headers }, scope) {
    if (wantsCsv(headers.accept)) {
      const stream = await exportRefundBook(
        scope.services.csvExports,
        callerOf(scope),
        query,
        refundCells,
        REFUND_CSV_COLUMNS,
      );
      return {
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': `attachment; filename="refunds-${kathmanduToday()}.csv"` },
        stream,
      };
    }
    const { refunds, request, total } = await listRefundBook(scope.em, callerOf(scope), query);
    return {
      status: 200,
      body: successBody(springPage(refunds.map(refundDetailWire), request, total), 'Refunds retrieved'),
    };
  },

  async getRefund({ params }, scope) {
    return {
      status: 200,
      body: successBody(
        refundDetailWire(await refundOfCompany(scope.em, callerOf(scope), params.refundRef)),
        'Refund retrieved',
      ),
    };
  },

  async setSandboxRefundOutcome({ params, body }, scope) {
    const refund = await answerSandboxRefund(
      scope.em,
      callerOf(scope),
      params.refundRef,
      body.outcome,
      scope.services.payments,
    );
    return { status: 200, body: successBody(refundDetailWire(refund), `Refund ${refund.status}`) };
  },
} satisfies TagHandlers;
