import type { EnvReader } from '../settings/env-reader';
import type { StreamingSettings } from './streaming-connections';

/** The streamed answers' own connection budget (see streaming-connections.ts). */
export function streamingConfig(read: EnvReader): StreamingSettings {
  return {
    connections: read.integer('EXPORT_DB_CONNECTIONS', 4, 1, 50),
    perCompany: read.integer('EXPORTS_PER_COMPANY', 2, 1, 50),
    waitMs: read.integer('EXPORT_CONNECTION_WAIT_MS', 2000, 100, 60_000),
  };
}
