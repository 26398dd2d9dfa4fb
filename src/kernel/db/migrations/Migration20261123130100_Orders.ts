import { Migration } from '@mikro-orm/migrations';

export class Migration20261123130100_Orders extends Migration {
  override async up(): Promise<void> {
    // References come from sequences, never count(*): unique and gap-tolerant across server
    // processes. The year in the reference is the Kathmandu year of creation; the number never resets.
    this.addSql(`create sequence "order_ref_seq" as bigint start 1;`);
    this.addSql(`create sequence "order_number_seq" as bigint start 1;`);
    this.addSql(`create sequence "order_group_ref_seq" as bigint start 1;`);

    this.addSql(
      `create table "order_group" ("id" uuid not null, "group_ref" text not null, "company_id" uuid not null, "currency" text not null, "version" int not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "order_group_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "order_group" add constraint "order_group_group_ref_unique" unique ("group_ref");`);

    this.addSql(
      `create table "insurance_order" ("id" uuid not null, "order_ref" text not null, "order_number" text not null, "company_id" uuid not null, "status" text check ("status" in ('PENDING', 'PAID', 'COMPLETED', 'CLOSED', 'CANCELLED')) not null default 'PENDING', "settlement_type" text check ("settlement_type" in ('ONLINE', 'CASH')) not null default 'ONLINE', "traveller_id" uuid not null, "ctg_id" uuid not null, "route_id" uuid null, "custom_route_name" text null, "departure_date" date not null, "coverage_start_date" date not null, "coverage_end_date" date not null, "duration_days" int not null, "quote_id" uuid null, "group_id" uuid null, "commission_company_id" uuid null, "custom_travel_agencies" jsonb not null, "referral_code" text null, "currency" text not null, "package_price" numeric(12,2) not null, "included_devices" jsonb not null, "excluded_included_device_ids" jsonb not null, "added_services" jsonb null, "added_devices" jsonb null, "company_promo_discount" numeric(12,2) not null default 0, "agent_promo_discount" numeric(12,2) not null default 0, "direct_discount_percent" numeric(5,2) not null default '0.00', "direct_discount_amount" numeric(12,2) not null default 0, "total_amount" numeric(12,2) not null, "extra_fields" jsonb null, "dispatch_info" jsonb null, "paid_at" timestamptz null, "version" int not null default 1, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "insurance_order_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_order_ref_unique" unique ("order_ref");`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_order_number_unique" unique ("order_number");`,
    );
    // One order per quote: the last word on "quote already used" when two requests race.
    this.addSql(`alter table "insurance_order" add constraint "insurance_order_quote_id_unique" unique ("quote_id");`);
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_route_xor_custom_check" check (("route_id" is null) <> ("custom_route_name" is null));`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_total_amount_check" check ("total_amount" >= 0);`,
    );
    this.addSql(
      `create index "insurance_order_company_id_created_at_index" on "insurance_order" ("company_id", "created_at");`,
    );
    this.addSql(`create index "insurance_order_group_id_index" on "insurance_order" ("group_id");`);

    this.addSql(
      `create table "order_travel_company" ("order_id" uuid not null, "company_id" uuid not null, "position" smallint not null, constraint "order_travel_company_pkey" primary key ("order_id", "company_id"));`,
    );
    this.addSql(`create index "order_travel_company_company_id_index" on "order_travel_company" ("company_id");`);

    this.addSql(
      `alter table "order_group" add constraint "order_group_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_traveller_id_foreign" foreign key ("traveller_id") references "traveller" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_ctg_id_foreign" foreign key ("ctg_id") references "ctg" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_route_id_foreign" foreign key ("route_id") references "route" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_quote_id_foreign" foreign key ("quote_id") references "quote" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_group_id_foreign" foreign key ("group_id") references "order_group" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_commission_company_id_foreign" foreign key ("commission_company_id") references "company" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "order_travel_company" add constraint "order_travel_company_order_id_foreign" foreign key ("order_id") references "insurance_order" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "order_travel_company" add constraint "order_travel_company_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_travel_company" cascade;`);
    this.addSql(`drop table if exists "insurance_order" cascade;`);
    this.addSql(`drop table if exists "order_group" cascade;`);
    this.addSql(`drop sequence if exists "order_group_ref_seq";`);
    this.addSql(`drop sequence if exists "order_number_seq";`);
    this.addSql(`drop sequence if exists "order_ref_seq";`);
  }
}
