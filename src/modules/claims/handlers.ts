import { kathmanduToday } from '../../kernel/business-date';
import { wantsCsv } from '../../kernel/csv';
import { successBody } from '../../kernel/http/envelope';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { springPage } from '../../kernel/http/pagination';
import { answerInformationRequest, withdrawClaim } from './claim-answers';
import { fileClaim, type FiledAnswer } from './claim-filing';
import { replayedHeaders } from '../../kernel/http/idempotent-create';
import { claimDetail, findVisibleClaim, listClaims } from './claim-reading';
import { exportClaims } from './claim-export';
import { claimDetailWire, claimWire } from './claim-wire';
import { decideSandboxClaim } from './sandbox-claim-decision';

/** The claims desk answers on the insurer's one line: the certificate's assistance phone. */
const deskPhoneOf = (config: { certificate: { assistancePhone: string } }) => config.certificate.assistancePhone;

const detail = (filed: FiledAnswer, viewer: string, deskPhone: string) =>
  claimDetailWire(filed.view, filed.timeline, viewer, deskPhone);

export const claimHandlers = {
  async fileClaim({ params, body, headers }, scope) {
    const caller = callerOf(scope);
    const { config } = scope.services;
    const filed = await fileClaim(
      scope.em,
      caller,
      params.orderRef,
      body,
      String(headers['idempotency-key']),
      config.claims.noticeDays,
    );
    return {
      status: 201,
      ...replayedHeaders(filed.replayed === true),
      body: successBody(
        detail(filed, caller.companyId, deskPhoneOf(config)),
        'Claim filed. The claims desk will assess it.',
      ),
    };
  },

  async listClaims({ query, headers }, scope) {
    const caller = callerOf(scope);
    if (wantsCsv(headers.accept))
      return {
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'Content-Disposition': `attachment; filename="claims-${kathmanduToday()}.csv"` },
        stream: await exportClaims(scope.services.csvExports, caller, query),
      };
    const { views, request, total } = await listClaims(scope.em, caller, query);
    const deskPhone = deskPhoneOf(scope.services.config);
    return {
      status: 200,
      body: successBody(
        springPage(
          views.map((view) => claimWire(view, caller.companyId, deskPhone)),
          request,
          total,
        ),
        'Claims retrieved',
      ),
    };
  },

  async getClaim({ params }, scope) {
    const caller = callerOf(scope);
    const claim = await findVisibleClaim(scope.em, caller, params.claimRef);
    return {
      status: 200,
      body: successBody(
        detail(await claimDetail(scope.em, claim), caller.companyId, deskPhoneOf(scope.services.config)),
        'Claim',
      ),
    };
  },

  async answerClaimInformationRequest({ params, body }, scope) {
    const caller = callerOf(scope);
    const filed = await answerInformationRequest(scope.em, caller, params.claimRef, body);
    return {
      status: 200,
      body: successBody(
        detail(filed, caller.companyId, deskPhoneOf(scope.services.config)),
        'Answer sent to the claims desk',
      ),
    };
  },

  async withdrawClaim({ params, body }, scope) {
    const caller = callerOf(scope);
    const filed = await withdrawClaim(scope.em, caller, params.claimRef, body.reason);
    return {
      status: 200,
      body: successBody(detail(filed, caller.companyId, deskPhoneOf(scope.services.config)), 'Claim withdrawn'),
    };
  },

  async setSandboxClaimDecision({ params, body }, scope) {
    const caller = callerOf(scope);
    const filed = await decideSandboxClaim(scope.em, caller, params.claimRef, body);
    return {
      status: 200,
      body: successBody(
        detail(filed, caller.companyId, deskPhoneOf(scope.services.config)),
        `Claim ${filed.view.claim.status}`,
      ),
    };
  },
} satisfies TagHandlers;

/** Filing counts its outcomes, like opening an assistance case. */
export const claimPolicies = {
  fileClaim: {
    outcomes: { name: 'claim_filings_total', help: 'POST /orders/{orderRef}/claims by outcome (accepted or rejected)' },
  },
} satisfies OperationPolicies;
