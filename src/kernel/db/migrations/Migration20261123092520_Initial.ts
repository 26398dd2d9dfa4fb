import { Migration } from '@mikro-orm/migrations';

export class Migration20261123092520_Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "company" ("id" uuid not null, "name" text not null, "type" text check ("type" in ('TRAVEL_AGENCY', 'SALES_COMPANY')) not null, "commission_percent" numeric(5,2) not null default '0.00', "active" boolean not null default true, "created_at" timestamptz not null, constraint "company_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "credential" ("id" uuid not null, "client_id" text not null, "secret_hash" text not null, "company_id" uuid not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "credential_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "credential" add constraint "credential_client_id_unique" unique ("client_id");`);

    this.addSql(
      `create table "access_token" ("id" uuid not null, "token_hash" text not null, "credential_id" uuid not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "access_token_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "access_token" add constraint "access_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "access_token_expires_at_index" on "access_token" ("expires_at");`);

    this.addSql(
      `create table "route" ("id" uuid not null, "name" text not null, "region" text not null, "trek_name" text not null, "route_type" text not null, "route_category" text not null, "max_altitude" int not null, "description" text not null default '', "active" boolean not null default true, constraint "route_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "ctg" ("id" uuid not null, "code" text not null, "name" text not null, "insurance_product_id" text not null, "insurance_company" text not null, "product_type" text not null, "route_id" uuid null, "min_altitude" int not null, "max_altitude" int not null, "min_age" int not null, "max_age" int not null, "base_duration_days" int not null, "base_ctg_price" numeric(12,2) not null, "extra_day_price" numeric(12,2) not null, "display_order" int not null, "active" boolean not null default true, "description" text not null default '', "terms_conditions" text not null default '', "coverage" jsonb not null, "included_devices" jsonb not null, constraint "ctg_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "ctg" add constraint "ctg_code_unique" unique ("code");`);

    this.addSql(
      `create table "quote" ("id" uuid not null, "company_id" uuid not null, "ctg_id" uuid not null, "route_id" uuid null, "nationality" text not null, "age" int not null, "max_altitude" int not null, "start_date" date not null, "end_date" date not null, "duration_days" int not null, "currency" text not null, "ctg_price_for_duration" numeric(12,2) not null, "total_amount" numeric(12,2) not null, "included_devices" jsonb not null, "coverage" jsonb not null, "status" text check ("status" in ('ACTIVE', 'USED', 'EXPIRED')) not null default 'ACTIVE', "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "quote_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "quote_company_id_created_at_index" on "quote" ("company_id", "created_at");`);

    this.addSql(
      `create table "sales_agent" ("id" uuid not null, "company_id" uuid not null, "name" text not null, "active" boolean not null default true, "created_at" timestamptz not null, constraint "sales_agent_pkey" primary key ("id"));`,
    );

    this.addSql(
      `alter table "credential" add constraint "credential_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "access_token" add constraint "access_token_credential_id_foreign" foreign key ("credential_id") references "credential" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "ctg" add constraint "ctg_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "quote" add constraint "quote_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "quote" add constraint "quote_ctg_id_foreign" foreign key ("ctg_id") references "ctg" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "quote" add constraint "quote_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "sales_agent" add constraint "sales_agent_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "credential" drop constraint "credential_company_id_foreign";`);

    this.addSql(`alter table "quote" drop constraint "quote_company_id_foreign";`);

    this.addSql(`alter table "sales_agent" drop constraint "sales_agent_company_id_foreign";`);

    this.addSql(`alter table "access_token" drop constraint "access_token_credential_id_foreign";`);

    this.addSql(`alter table "ctg" drop constraint "ctg_route_id_foreign";`);

    this.addSql(`alter table "quote" drop constraint "quote_route_id_foreign";`);

    this.addSql(`alter table "quote" drop constraint "quote_ctg_id_foreign";`);

    this.addSql(`drop table if exists "company" cascade;`);

    this.addSql(`drop table if exists "credential" cascade;`);

    this.addSql(`drop table if exists "access_token" cascade;`);

    this.addSql(`drop table if exists "route" cascade;`);

    this.addSql(`drop table if exists "ctg" cascade;`);

    this.addSql(`drop table if exists "quote" cascade;`);

    this.addSql(`drop table if exists "sales_agent" cascade;`);
  }
}
