import { Migration } from '@mikro-orm/migrations';

/**
 * The catalogue's version: one row, bumped by every catalogue import in its own transaction and
 * announced in the NOTIFY that the import's commit delivers. A server compares the version it has
 * loaded with the one announced, so a reload that read the rows before the import committed can
 * never pass for the new catalogue.
 */
export class Migration20261203090000_CatalogueVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "catalogue_version" ("id" boolean not null default true primary key check ("id"), "version" bigint not null default 0);`,
    );
    this.addSql(`insert into "catalogue_version" ("id", "version") values (true, 0);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "catalogue_version";`);
  }
}
