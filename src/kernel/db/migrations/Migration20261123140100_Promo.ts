import { Migration } from '@mikro-orm/migrations';

export class Migration20261123140100_Promo extends Migration {
  override async up(): Promise<void> {
    // Codes are stored upper-case (input is normalised), so the unique constraint is case-insensitive.
    this.addSql(
      `create table "promo_code" ("id" uuid not null, "code" text not null, "owner_company_id" uuid null, "owner_agent_id" uuid null, "discount_percent" numeric(5,2) null, "discount_amount" numeric(12,2) null, "valid_from" date null, "valid_to" date null, "active" boolean not null default true, "usage_limit" int null, "used_count" int not null default 0, "created_at" timestamptz not null, constraint "promo_code_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "promo_code" add constraint "promo_code_code_unique" unique ("code");`);
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_code_upper_check" check ("code" = upper("code") and length(btrim("code")) > 0);`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_owner_xor_check" check (("owner_company_id" is null) <> ("owner_agent_id" is null));`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_discount_xor_check" check (("discount_percent" is null) <> ("discount_amount" is null));`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_discount_percent_check" check ("discount_percent" is null or ("discount_percent" > 0 and "discount_percent" <= 100));`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_discount_amount_check" check ("discount_amount" is null or "discount_amount" > 0);`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_validity_check" check ("valid_from" is null or "valid_to" is null or "valid_from" <= "valid_to");`,
    );
    // The database's last word on over-redemption, whatever the number of server processes.
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_usage_check" check ("used_count" >= 0 and ("usage_limit" is null or ("usage_limit" >= 0 and "used_count" <= "usage_limit")));`,
    );
    this.addSql(`create index "promo_code_owner_company_id_index" on "promo_code" ("owner_company_id");`);
    this.addSql(`create index "promo_code_owner_agent_id_index" on "promo_code" ("owner_agent_id");`);
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_owner_company_id_foreign" foreign key ("owner_company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "promo_code" add constraint "promo_code_owner_agent_id_foreign" foreign key ("owner_agent_id") references "sales_agent" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "insurance_order" add column "company_promo_code_id" uuid null, add column "agent_promo_code_id" uuid null, add column "binding_type" text check ("binding_type" in ('NONE', 'COMPANY', 'AGENT')) not null default 'NONE', add column "binding_company_id" uuid null, add column "binding_agent_id" uuid null;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_binding_check" check (("binding_type" = 'NONE' and "binding_company_id" is null and "binding_agent_id" is null) or ("binding_type" = 'COMPANY' and "binding_company_id" is not null and "binding_agent_id" is null) or ("binding_type" = 'AGENT' and "binding_agent_id" is not null and "binding_company_id" is null));`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_company_promo_code_id_foreign" foreign key ("company_promo_code_id") references "promo_code" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_agent_promo_code_id_foreign" foreign key ("agent_promo_code_id") references "promo_code" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_binding_company_id_foreign" foreign key ("binding_company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_binding_agent_id_foreign" foreign key ("binding_agent_id") references "sales_agent" ("id") on update cascade;`,
    );
    this.addSql(
      `create index "insurance_order_company_promo_code_id_index" on "insurance_order" ("company_promo_code_id");`,
    );
    this.addSql(
      `create index "insurance_order_agent_promo_code_id_index" on "insurance_order" ("agent_promo_code_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "insurance_order" drop constraint if exists "insurance_order_binding_check";`);
    this.addSql(
      `alter table "insurance_order" drop column "company_promo_code_id", drop column "agent_promo_code_id", drop column "binding_type", drop column "binding_company_id", drop column "binding_agent_id";`,
    );
    this.addSql(`drop table if exists "promo_code" cascade;`);
  }
}
