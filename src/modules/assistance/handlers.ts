import { successBody } from '../../kernel/http/envelope';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { springPage } from '../../kernel/http/pagination';
import { openCase } from './case-opening';
import { replayedHeaders } from '../../kernel/http/idempotent-create';
import { findVisibleCase, caseView, listCases } from './case-reading';
import { addCaseUpdate } from './case-updates';
import { withdrawCase } from './case-withdrawal';
import { decideCaseInSandbox } from './case-sandbox-decision';
import { caseDetailWire, caseWire, type CaseFacts, type EntryFacts } from './case-wire';

/** The desk's 24-hour line: the certificate's assistance phone, one number everywhere. */
const deskPhoneOf = (config: { certificate: { assistancePhone: string } }) => config.certificate.assistancePhone;

const detail = (
  view: { assistanceCase: CaseFacts; documentIds: readonly string[]; timeline: readonly EntryFacts[] },
  deskPhone: string,
) => caseDetailWire(view.assistanceCase, view.documentIds, view.timeline, deskPhone);

export const assistanceHandlers = {
  async openAssistanceCase({ params, body, headers }, scope) {
    const view = await openCase(scope.em, callerOf(scope), params.orderRef, body, String(headers['idempotency-key']));
    return {
      status: 201,
      ...replayedHeaders(view.replayed),
      body: successBody(
        detail(view, deskPhoneOf(scope.services.config)),
        'Assistance case opened. Call the assistance desk now.',
      ),
    };
  },

  async listAssistanceCases({ query }, scope) {
    const { rows, request, total } = await listCases(scope.em, callerOf(scope), query);
    const deskPhone = deskPhoneOf(scope.services.config);
    return {
      status: 200,
      body: successBody(
        springPage(
          rows.map((row) => caseWire(row.assistanceCase, row.documentIds, deskPhone)),
          request,
          total,
        ),
        'Assistance cases retrieved',
      ),
    };
  },

  async getAssistanceCase({ params }, scope) {
    const assistanceCase = await findVisibleCase(scope.em, callerOf(scope), params.caseRef);
    return {
      status: 200,
      body: successBody(
        detail(await caseView(scope.em, assistanceCase), deskPhoneOf(scope.services.config)),
        'Assistance case',
      ),
    };
  },

  async addAssistanceCaseUpdate({ params, body }, scope) {
    const view = await addCaseUpdate(scope.em, callerOf(scope), params.caseRef, body);
    return {
      status: 200,
      body: successBody(detail(view, deskPhoneOf(scope.services.config)), 'Update added to the assistance case'),
    };
  },

  async withdrawAssistanceCase({ params, body }, scope) {
    const view = await withdrawCase(scope.em, callerOf(scope), params.caseRef, body.reason);
    return {
      status: 200,
      body: successBody(detail(view, deskPhoneOf(scope.services.config)), 'Assistance case withdrawn'),
    };
  },

  async setSandboxAssistanceCaseDecision({ params, body }, scope) {
    const { config } = scope.services;
    const view = await decideCaseInSandbox(scope.em, callerOf(scope), params.caseRef, body, config.currency);
    return {
      status: 200,
      body: successBody(detail(view, deskPhoneOf(config)), `Assistance case ${view.assistanceCase.status}`),
    };
  },
} satisfies TagHandlers;

/**
 * Opening a case counts its outcomes; it takes no rate limit: a partner that spent its booking
 * budget must still be able to report a traveller in danger.
 */
export const assistancePolicies = {
  openAssistanceCase: {
    outcomes: {
      name: 'assistance_case_opens_total',
      help: 'POST /orders/{orderRef}/assistance-cases by outcome (accepted or rejected)',
    },
  },
} satisfies OperationPolicies;
