import { Migration } from '@mikro-orm/migrations';

/**
 * The check code each policy's verify link carries: the page shows the traveller's initials only
 * with it. Policies issued before get one now (6 characters of an md5 of random data: the
 * certificates printed before this carry no code, so theirs is only needed once one is printed again).
 */
export class Migration20261203130100_VerificationCodes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "insurance_order" add column "verification_code" text null;`);
    this.addSql(
      `update "insurance_order" set "verification_code" = upper(substr(md5(random()::text || "id"::text), 1, 6)) where "policy_number" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "insurance_order" drop column "verification_code";`);
  }
}
