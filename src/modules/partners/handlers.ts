import { successBody } from '../../kernel/http/envelope';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { testToday } from '../../kernel/business-today';
import { readOwnCompany } from './own-company';

export const partnerHandlers = {
  /** What a partner cannot learn anywhere else: its own company id (a sales company books an agency by it). */
  async getMe(_request, scope) {
    const { company, salesAgents } = await readOwnCompany(scope.em, callerOf(scope).companyId);
    return {
      status: 200,
      body: successBody(
        {
          companyId: company.id,
          name: company.name,
          type: company.type,
          commissionPercent: Number(company.commissionPercent),
          salesAgents: salesAgents.map((agent) => ({ salesAgentId: agent.id, name: agent.name, active: agent.active })),
          testToday: testToday() ?? null,
        },
        'Company retrieved',
      ),
    };
  },
} satisfies TagHandlers;
