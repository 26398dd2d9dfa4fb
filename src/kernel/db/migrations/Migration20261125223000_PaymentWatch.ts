import { Migration } from '@mikro-orm/migrations';

/**
 * Payments the provider decides late or takes back: each attempt carries its own schedule of
 * provider lookups (`next_check_at`, pushed back exponentially with `check_count`), so an
 * undecided payment is watched for days and a paid one for a refund made at the provider,
 * without asking every provider about every attempt on every pass. `provider_reversal`
 * (`PARTIAL`, `FULL`) records what the provider said it took back, when it was first seen.
 */
export class Migration20261125223000_PaymentWatch extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "payment_attempt" add column "next_check_at" timestamptz null, add column "check_count" int not null default 0, add column "provider_reversal" text null, add column "provider_reversal_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_provider_reversal_check" check ("provider_reversal" in ('PARTIAL', 'FULL'));`,
    );
    // The watch reads paid attempts by completion time (PAYMENT_REVERSAL_WATCH_DAYS back).
    this.addSql(`create index "payment_attempt_watch_index" on "payment_attempt" ("status", "completed_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "payment_attempt_watch_index";`);
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_provider_reversal_check";`);
    this.addSql(
      `alter table "payment_attempt" drop column "next_check_at", drop column "check_count", drop column "provider_reversal", drop column "provider_reversal_at";`,
    );
  }
}
