import { initOrm as initKernelOrm, type Orm } from './kernel/db/orm';
import type { OrmLogSink } from './kernel/db/orm-log';
import { RateLimitBucket } from './kernel/rate-limits/rate-limit-bucket';
import { ASSISTANCE_ENTITIES } from './modules/assistance/entities';
import { AUTH_ENTITIES } from './modules/auth/entities';
import { CLAIM_ENTITIES } from './modules/claims/entities';
import { CATALOGUE_ENTITIES } from './modules/catalogue/entities';
import { COMMISSION_ENTITIES } from './modules/commissions/entities';
import { DOCUMENT_ENTITIES } from './modules/documents/entities';
import { ORDER_ENTITIES } from './modules/orders/entities';
import { PARTNER_ENTITIES } from './modules/partners/entities';
import { PAYMENT_ENTITIES } from './modules/payments/entities';
import { REFUND_ENTITIES } from './modules/refunds/entities';
import { PROMO_ENTITIES } from './modules/promos/entities';
import { TRAVELLER_ENTITIES } from './modules/travellers/entities';
import { WEBHOOK_ENTITIES } from './modules/webhooks/entities';

/** Every entity the ORM knows, module by module; listed explicitly so no folder scanning happens at start. */
export const entities = [
  ...PARTNER_ENTITIES,
  ...AUTH_ENTITIES,
  ...CATALOGUE_ENTITIES,
  ...DOCUMENT_ENTITIES,
  ...TRAVELLER_ENTITIES,
  ...ORDER_ENTITIES,
  ...PAYMENT_ENTITIES,
  ...REFUND_ENTITIES,
  ...PROMO_ENTITIES,
  RateLimitBucket,
  ...WEBHOOK_ENTITIES,
  ...ASSISTANCE_ENTITIES,
  ...COMMISSION_ENTITIES,
  ...CLAIM_ENTITIES,
];

/** The service's ORM: the kernel's, over every module's entities. */
export function initOrm(clientUrl: string, poolMax?: number, log?: OrmLogSink): Promise<Orm> {
  return initKernelOrm(clientUrl, entities, poolMax, log);
}
