import { issueToken } from '../services/authentication';
import { successBody } from '../http/envelope';
import { tokenAttemptLimits } from '../http/rate-limits';
import type { OperationHandlers } from './operation';
import type { Schemas } from './wire';

export const authHandlers: OperationHandlers = {
  async issueToken(c, scope) {
    const { clientId, clientSecret } = c.request.requestBody as Schemas['TokenRequest'];
    const limits = tokenAttemptLimits(scope, clientId);
    const token: Schemas['Token'] = await issueToken(scope.em, clientId, clientSecret, scope.services.config.tokenTtlSeconds, limits);
    return { status: 200, body: successBody(token, 'Token issued') };
  },
};
