import { authHandlers } from './modules/auth';
import { certificateHandlers } from './modules/certificates';
import { documentHandlers } from './modules/documents';
import { healthHandlers } from './kernel/http/health-handlers';
import type { ContractHandlers } from './kernel/http/request-scope';
import { orderHandlers } from './modules/orders';
import { paymentHandlers } from './modules/payments';
import { promoHandlers } from './modules/promos';
import { referenceHandlers } from './modules/catalogue';
import { travellerHandlers } from './modules/travellers';

/** Every implemented operation, keyed by operationId; one module per tag. */
export const operationHandlers = {
  ...healthHandlers,
  ...authHandlers,
  ...referenceHandlers,
  ...orderHandlers,
  ...paymentHandlers,
  ...documentHandlers,
  ...travellerHandlers,
  ...promoHandlers,
  ...certificateHandlers,
} satisfies ContractHandlers;
