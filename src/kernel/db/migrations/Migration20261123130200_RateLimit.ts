import { Migration } from '@mikro-orm/migrations';

export class Migration20261123130200_RateLimit extends Migration {
  override async up(): Promise<void> {
    // Unlogged: counters are worth losing on a crash rather than paying WAL on every counted request.
    this.addSql(
      `create unlogged table "rate_limit_bucket" ("key" text not null, "window_started_at" timestamptz not null, "hits" int not null, constraint "rate_limit_bucket_pkey" primary key ("key"));`,
    );
    this.addSql(
      `create index "rate_limit_bucket_window_started_at_index" on "rate_limit_bucket" ("window_started_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limit_bucket" cascade;`);
  }
}
