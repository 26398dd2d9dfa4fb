import { z } from 'zod';
import { integer, readEnv, type EnvReading } from '../settings/env-schema';
import type { StreamingSettings } from './streaming-connections';

const streamingEnv = z.object({
  EXPORT_DB_CONNECTIONS: integer(1, 50).default(4),
  EXPORTS_PER_COMPANY: integer(1, 50).default(2),
  EXPORT_CONNECTION_WAIT_MS: integer(100, 60_000).default(2000),
});

/** The streamed answers' own connection budget (see streaming-connections.ts). */
export function streamingConfig(reading: EnvReading): StreamingSettings {
  const env = readEnv(streamingEnv, reading);
  return {
    connections: env.EXPORT_DB_CONNECTIONS,
    perCompany: env.EXPORTS_PER_COMPANY,
    waitMs: env.EXPORT_CONNECTION_WAIT_MS,
  };
}
