import { Migration } from '@mikro-orm/migrations';

/**
 * A claim billed from an assistance case's guarantee of payment (`ops case bill`, decision record
 * 0101) carries the most the insurer pays on it: the guarantee's cost limit, or what the desk
 * raised it to with its note. Null for a claim the partner filed.
 */
export class Migration20261220090000_ClaimGuaranteeCap extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "claim" add column "payout_cap" numeric(14,2) null;`);
    this.addSql(`alter table "claim" add column "payout_cap_note" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "claim" drop column if exists "payout_cap_note";`);
    this.addSql(`alter table "claim" drop column if exists "payout_cap";`);
  }
}
