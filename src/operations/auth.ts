import { issueToken } from '../services/authentication';
import { successBody } from '../http/envelope';
import type { OperationHandlers } from './operation';
import type { Schemas } from './wire';

export const authHandlers: OperationHandlers = {
  async issueToken(c, { em, services }) {
    const { clientId, clientSecret } = c.request.requestBody as Schemas['TokenRequest'];
    const token: Schemas['Token'] = await issueToken(em, clientId, clientSecret, services.config.tokenTtlSeconds);
    return { status: 200, body: successBody(token, 'Token issued') };
  },
};
