import { issueToken } from '../services/authentication';
import { successBody } from '../http/envelope';
import { tokenAttemptLimits } from '../http/rate-limits';
import type { TagHandlers } from './operation';
import type { Schemas } from '../domain/wire';

export const authHandlers = {
  async issueToken({ body }, scope) {
    const { clientId, clientSecret } = body;
    const limits = tokenAttemptLimits(scope, clientId);
    const token: Schemas['Token'] = await issueToken(scope.em, clientId, clientSecret, scope.services.config.tokenTtlSeconds, limits);
    return { status: 200, body: successBody(token, 'Token issued') };
  },
} satisfies TagHandlers;
