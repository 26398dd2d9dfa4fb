import { Migration } from '@mikro-orm/migrations';

/**
 * A refund's claim, apart from its next try (decision record 0075): `claimed_until` is set
 * while the executor is at the provider for it and cleared with the answer, so a claim can refuse
 * a second refund of the same provider transaction while one is in flight (a back-off, which also
 * moves `next_try_at`, does not). Indexed by payment for that check.
 */
export class Migration20261203100000_RefundClaims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refund" add column "claimed_until" timestamptz null;`);
    this.addSql(`create index "refund_attempt_id_index" on "refund" ("attempt_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "refund_attempt_id_index";`);
    this.addSql(`alter table "refund" drop column if exists "claimed_until";`);
  }
}
