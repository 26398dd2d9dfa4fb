import { z } from 'zod';
import { integer, readEnv, type EnvReading } from '../../kernel/settings/env-schema';

export interface ClaimsConfig {
  /** Days after the cover's end within which a claim may still be filed (CLAIM_NOTICE_DAYS, default 90). */
  noticeDays: number;
}

const claimsEnv = z.object({
  CLAIM_NOTICE_DAYS: integer(1, 3650).default(90),
});

export function claimsConfig(reading: EnvReading): ClaimsConfig {
  return { noticeDays: readEnv(claimsEnv, reading).CLAIM_NOTICE_DAYS };
}
