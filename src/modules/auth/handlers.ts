import { issueToken } from './authentication';
import { successBody } from '../../kernel/http/envelope';
import { tokenAttemptLimits } from './token-attempt-limits';
import type { TagHandlers } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';

export const authHandlers = {
  async issueToken({ body }, scope) {
    const { clientId, clientSecret } = body;
    const limits = tokenAttemptLimits(scope, clientId);
    const token: Schemas['Token'] = await issueToken(
      scope.em,
      clientId,
      clientSecret,
      scope.services.config.tokenTtlSeconds,
      limits,
    );
    return { status: 200, body: successBody(token, 'Token issued') };
  },
} satisfies TagHandlers;
