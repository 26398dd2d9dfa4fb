import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { AuditEntry, type newAuditEntry } from '../orders';
import { WebhookEvent, type newWebhookEvent } from '../webhooks';
import { AssistanceCase } from './entities/assistance-case';
import { AssistanceCaseEntry } from './entities/assistance-case-entry';

export interface OpeningRows {
  assistanceCase: Record<string, unknown>;
  opened: Record<string, unknown>;
  audit: ReturnType<typeof newAuditEntry>;
  events: ReturnType<typeof newWebhookEvent>[];
}

/**
 * Writes a new case, its opening timeline entry, its audit entry and its events with one
 * statement (data-modifying common table expressions): one round trip instead of a flush's four
 * inserts, and atomic on its own, so a case is never written without its entry, audit or events.
 * A second open case for the traveller or a reused key fails the whole statement on the
 * case's unique indexes. Each insert is MikroORM's own for its entity, so column names and value
 * conversions (JSON, dates) are the ORM's as in a flush.
 */
export async function writeOpening(em: EntityManager, rows: OpeningRows): Promise<void> {
  const insert = <T extends object>(entity: EntityName<T>, data: object | object[]) => em.createQueryBuilder(entity).insert(data as never).getFormattedQuery();
  await em.execute(
    `with opened_case as (${insert(AssistanceCase, rows.assistanceCase)}),
       opening_entry as (${insert(AssistanceCaseEntry, rows.opened)}),
       audit as (${insert(AuditEntry, rows.audit)})
     ${insert(WebhookEvent, rows.events)}`,
  );
}
