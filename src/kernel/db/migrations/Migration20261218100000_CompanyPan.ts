import { Migration } from '@mikro-orm/migrations';

/**
 * A company's PAN/VAT number (its registration with Nepal's Inland Revenue Department), printed on
 * its commission statement beside the insurer's (decision record 0098). Empty until an operator
 * records it: the statement then says it is not on file.
 */
export class Migration20261218100000_CompanyPan extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "company" add column "pan_number" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "company" drop column if exists "pan_number";`);
  }
}
