import type { Document } from 'openapi-backend';
import { amountFromMinor } from '../../kernel/money';
import { isRecord } from '../../kernel/narrow';
import type { Order } from '../orders';
import type { WebhookEventType } from '../webhooks';

/**
 * The `data` of an event type as the contract documents it: the first example of the event's
 * schema, or of its request body, under the document's `webhooks` (redocly checks every example
 * against its schema), so a new event type has its sample the day it enters the contract.
 */
export function documentedEventData(document: Document, type: WebhookEventType): Record<string, unknown> {
  const webhooks: unknown = (document as { webhooks?: unknown }).webhooks;
  const operation = isRecord(webhooks) && isRecord(webhooks[type]) ? webhooks[type].post : undefined;
  const media = isRecord(operation) ? deep(operation, ['requestBody', 'content', 'application/json']) : undefined;
  const schema = schemaAt(document, isRecord(media) ? media.schema : undefined);
  // The schema's own examples, else the first named example of the request body.
  const named = isRecord(media) && isRecord(media.examples) ? Object.values(media.examples)[0] : undefined;
  const example: unknown =
    isRecord(schema) && Array.isArray(schema.examples) ? schema.examples[0] : isRecord(named) ? named.value : undefined;
  if (!isRecord(example) || !isRecord(example.data)) throw new Error(`the contract documents no example of ${type}`);
  return structuredClone(example.data);
}

/**
 * The sample with an order's own facts wherever the event type has the field, so a partner's
 * receiver sees its real order: reference, number, status, group, dates, policy number, amount.
 * A fact the order does not have yet (no policy number before payment) keeps the sample's value.
 */
export function withOrderFacts(data: Record<string, unknown>, order: Order): Record<string, unknown> {
  const facts: Record<string, unknown> = {
    orderId: order.id,
    orderRef: order.orderRef,
    orderNumber: order.orderNumber,
    orderStatus: order.status,
    groupRef: order.group?.groupRef ?? null,
    currency: order.currency,
    policyNumber: order.policyNumber,
    departureDate: order.departureDate,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    amount: amountFromMinor(order.totalAmount),
  };
  const merged = { ...data };
  for (const [field, value] of Object.entries(facts)) {
    if (field in merged && value !== undefined && (value !== null || field === 'groupRef')) merged[field] = value;
  }
  return merged;
}

function deep(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
}

/** A schema, following one local `$ref` (the bundled document keeps event schemas in components). */
function schemaAt(document: Document, schema: unknown): unknown {
  if (!isRecord(schema) || typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name];
}
