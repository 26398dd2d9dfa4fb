import { Migration } from '@mikro-orm/migrations';

/**
 * Whether an earlier try of a refund may have reached the provider's refund call without our
 * learning its answer (decision record 0075): only such a try makes the next one a retry
 * that cannot trust a partial refund the provider shows. `tries > 0` stood for it before, which
 * also counted tries that failed at the lookup before anything was sent; existing rows keep that
 * reading.
 */
export class Migration20261204130000_RefundOutcomeUnknown extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refund" add column "outcome_unknown" boolean not null default false;`);
    this.addSql(`update "refund" set "outcome_unknown" = "tries" > 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refund" drop column if exists "outcome_unknown";`);
  }
}
