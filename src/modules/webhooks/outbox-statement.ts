import type { StatementValue } from '../../kernel/db/prepared-statement';
import type { newWebhookEvent } from './events';

/**
 * The columns of webhook_event a one-statement writer outside this module inserts (the assistance
 * case's opening), each with the key of newWebhookEvent's row it is read from and its cast.
 * Webhooks owns the table, so the SQL naming its columns lives here;
 * test/assistance/opening-owners.test.ts compares them with the entity and the real table
 * (decision 0106).
 */
export const WEBHOOK_EVENT_COLUMNS = {
  id: { key: 'id', cast: '' },
  company_id: { key: 'companyId', cast: '::uuid' },
  type: { key: 'type', cast: '' },
  payload: { key: 'payload', cast: '' },
  created_at: { key: 'createdAt', cast: '::timestamptz' },
  status: { key: 'status', cast: '' },
  sandbox: { key: 'sandbox', cast: '::boolean' },
} as const satisfies Record<string, { key: keyof ReturnType<typeof newWebhookEvent>; cast: string }>;

/**
 * `insert into webhook_event (…) select … from <source>, jsonb_array_elements(?::jsonb)`: every
 * event of the one JSON array webhookEventsValue makes, once per row of `source` (a CTE of one row
 * or none).
 */
export function webhookEventsInsert(source: string): string {
  const columns = Object.keys(WEBHOOK_EVENT_COLUMNS);
  const values = Object.values(WEBHOOK_EVENT_COLUMNS).map(({ key, cast }) =>
    key === 'payload' ? `event->'payload'` : cast ? `(event->>'${key}')${cast}` : `event->>'${key}'`,
  );
  return `insert into webhook_event (${columns.join(', ')}) select ${values.join(', ')} from ${source}, jsonb_array_elements(?::jsonb) as event`;
}

/** The one value webhookEventsInsert's placeholder takes. */
export function webhookEventsValue(events: ReturnType<typeof newWebhookEvent>[]): StatementValue {
  return JSON.stringify(events);
}
