import { Migration } from '@mikro-orm/migrations';

/**
 * Partner webhooks: one endpoint per company (its secret, and the one it replaced while the
 * rotation overlap lasts), the outbox of events (written in the transaction of the change they
 * announce) and the log of every delivery attempt.
 */
export class Migration20261201090000_Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" ("company_id" uuid not null primary key references "company" ("id") on delete cascade, "url" text not null, "secret" text not null, "previous_secret" text null, "previous_secret_until" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create table "webhook_event" ("id" text not null primary key, "company_id" uuid not null references "company" ("id") on delete cascade, "type" text not null, "payload" jsonb not null, "created_at" timestamptz not null default now(), "enqueued_at" timestamptz null, "status" text not null default 'PENDING' check ("status" in ('PENDING', 'DELIVERED', 'FAILED', 'NO_ENDPOINT')), "attempts" int not null default 0, "delivered_at" timestamptz null, "lease_until" timestamptz null);`,
    );
    // The relay looks only at rows not yet handed to the queue: a partial index keeps that cheap however long the log grows.
    this.addSql(
      `create index "webhook_event_unenqueued_index" on "webhook_event" ("created_at") where "enqueued_at" is null;`,
    );
    this.addSql(`create index "webhook_event_company_created_index" on "webhook_event" ("company_id", "created_at");`);
    this.addSql(
      `create table "webhook_delivery" ("id" uuid not null primary key, "event_id" text not null references "webhook_event" ("id") on delete cascade, "attempt" int not null, "url" text not null, "outcome" text not null check ("outcome" in ('DELIVERED', 'FAILED', 'REFUSED')), "response_code" int null, "latency_ms" int not null, "error" text null, "next_retry_at" timestamptz null, "at" timestamptz not null default now());`,
    );
    this.addSql(`create index "webhook_delivery_event_index" on "webhook_delivery" ("event_id", "at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery";`);
    this.addSql(`drop table if exists "webhook_event";`);
    this.addSql(`drop table if exists "webhook_endpoint";`);
  }
}
