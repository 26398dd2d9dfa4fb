import { Migration } from '@mikro-orm/migrations';

/**
 * Date changes (issue 28): when an order's dates last moved and the window they moved from. The
 * certificate says "Amended" from `amended_at`; every change, with both windows, is also one
 * audit entry, so these columns need keep only the last one.
 */
export class Migration20261125224000_OrderAmendments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "insurance_order" add column "amended_at" timestamptz null, add column "previous_departure_date" date null, add column "previous_coverage_start_date" date null, add column "previous_coverage_end_date" date null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "insurance_order" drop column "amended_at", drop column "previous_departure_date", drop column "previous_coverage_start_date", drop column "previous_coverage_end_date";`,
    );
  }
}
