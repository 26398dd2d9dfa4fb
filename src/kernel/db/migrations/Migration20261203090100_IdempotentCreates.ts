import { Migration } from '@mikro-orm/migrations';

/**
 * The first answer of each creating request sent with an Idempotency-Key, per company, operation
 * and key, written in the transaction that creates: a retry with the same key and body answers
 * it again for 24 hours; another body is a 409. A row older than that is taken over by the next
 * request with its key, and purged by the periodic job.
 */
export class Migration20261203090100_IdempotentCreates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotent_create" (
  "company_id" uuid not null,
  "operation" varchar(64) not null,
  "key" uuid not null,
  "fingerprint" char(64) not null,
  "answer_status" smallint null,
  "answer_body" jsonb null,
  "created_at" timestamptz not null default now(),
  primary key ("company_id", "operation", "key")
);`);
    this.addSql(`create index "idempotent_create_created_at_index" on "idempotent_create" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotent_create";`);
  }
}
