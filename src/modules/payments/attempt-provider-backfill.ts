import type { EntityManager } from '@mikro-orm/postgresql';
import { GATEWAY_NAMES } from './providers/gateway';
import { PaymentAttempt } from './entities/payment-attempt';
import type { PaymentConfig } from './settings';

/**
 * Names the provider of every online attempt made before attempts recorded it (the migration
 * AttemptProvider filled those a refund had named): the provider configured for its gateway at
 * the first start after the upgrade, which is the one that took it. Once named, an attempt keeps
 * its provider whatever the setting becomes. Idempotent: later starts find nothing to fill.
 */
export async function backfillAttemptProviders(
  em: EntityManager,
  payments: Pick<PaymentConfig, 'providers'>,
): Promise<number> {
  let filled = 0;
  for (const gateway of GATEWAY_NAMES) {
    const provider = payments.providers[gateway];
    if (!provider) continue;
    filled += await em.nativeUpdate(PaymentAttempt, { gateway, provider: null }, { provider });
  }
  return filled;
}
