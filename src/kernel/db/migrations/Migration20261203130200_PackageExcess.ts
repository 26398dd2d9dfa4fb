import { Migration } from '@mikro-orm/migrations';

/** Each package's excess (what the insured pays of a claim first), from the catalogue file; the certificate prints it. */
export class Migration20261203130200_PackageExcess extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ctg" add column "excess_amount" numeric(14,2) not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ctg" drop column "excess_amount";`);
  }
}
