import { Migration } from '@mikro-orm/migrations';

export class Migration20261124090000_UploadQuotas extends Migration {
  override async up(): Promise<void> {
    // Upload quotas count bytes per window: a 2 GiB default is past the range of int.
    this.addSql(`alter table "rate_limit_bucket" alter column "hits" type bigint;`);
    // The draft quota counts a company's unattached documents on every upload.
    this.addSql(
      `create index "document_company_draft_index" on "document" ("company_id") where "traveller_id" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "document_company_draft_index";`);
    this.addSql(`alter table "rate_limit_bucket" alter column "hits" type int;`);
  }
}
