import { authHandlers } from './auth';
import { healthHandlers } from './health';
import type { OperationHandlers } from './operation';
import { orderHandlers } from './orders';
import { promoHandlers } from './promos';
import { referenceHandlers } from './reference';

/** Every implemented operation, keyed by operationId; one module per tag. */
export const operationHandlers: OperationHandlers = {
  ...healthHandlers,
  ...authHandlers,
  ...referenceHandlers,
  ...orderHandlers,
  ...promoHandlers,
};
