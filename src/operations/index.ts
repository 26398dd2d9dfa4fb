import { authHandlers } from './auth';
import { certificateHandlers } from './certificates';
import { documentHandlers } from './documents';
import { healthHandlers } from './health';
import type { ContractHandlers } from './operation';
import { orderHandlers } from './orders';
import { paymentHandlers } from './payments';
import { promoHandlers } from './promos';
import { referenceHandlers } from './reference';
import { travellerHandlers } from './travellers';

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
