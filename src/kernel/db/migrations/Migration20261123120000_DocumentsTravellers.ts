import { Migration } from '@mikro-orm/migrations';

export class Migration20261123120000_DocumentsTravellers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);

    this.addSql(
      `create table "document" ("id" uuid not null, "company_id" uuid not null, "document_type" text check ("document_type" in ('AVATAR', 'PASSPORT', 'SIGNATURE', 'VISA')) not null, "file_name" text not null, "file_size" bigint not null, "content_type" text not null, "storage_key" text not null, "sha256" text not null, "traveller_id" uuid null, "attached_at" timestamptz null, "uploaded_at" timestamptz not null, constraint "document_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "document" add constraint "document_storage_key_unique" unique ("storage_key");`);
    this.addSql(
      `create index "document_draft_uploaded_at_index" on "document" ("uploaded_at") where traveller_id is null;`,
    );
    this.addSql(`create index "document_company_id_index" on "document" ("company_id");`);

    this.addSql(
      `create table "traveller" ("id" uuid not null, "company_id" uuid not null, "email" text not null, "name" text not null, "date_of_birth" date not null, "nationality" text not null, "country_of_residence" text null, "id_type" text not null, "id_number" text not null, "mother_tongue" text null, "blood_group" text null, "gender" text not null, "phone" text not null, "height" numeric(5,1) null, "weight" numeric(5,1) null, "english_service" boolean null, "emergency_contact_name" text not null, "emergency_contact_phone" text not null, "emergency_contact_email" text not null, "emergency_contact_relation" text not null, "medical_history" text null, "allergy" text null, "avatar_document_id" uuid not null, "passport_document_id" uuid not null, "signature_document_id" uuid not null, "visa_document_id" uuid null, "created_at" timestamptz not null, constraint "traveller_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "traveller" add column "search_text" text generated always as (lower("name" || ' ' || "email" || ' ' || "id_number" || ' ' || "phone" || ' ' || "nationality")) stored;`,
    );
    this.addSql(`create index "traveller_company_id_created_at_index" on "traveller" ("company_id", "created_at");`);
    this.addSql(
      `create index "traveller_search_text_trgm_index" on "traveller" using gin ("search_text" gin_trgm_ops);`,
    );
    // A document fills at most one slot of one traveller.
    this.addSql(
      `alter table "traveller" add constraint "traveller_avatar_document_id_unique" unique ("avatar_document_id");`,
    );
    this.addSql(
      `alter table "traveller" add constraint "traveller_passport_document_id_unique" unique ("passport_document_id");`,
    );
    this.addSql(
      `alter table "traveller" add constraint "traveller_signature_document_id_unique" unique ("signature_document_id");`,
    );
    this.addSql(
      `alter table "traveller" add constraint "traveller_visa_document_id_unique" unique ("visa_document_id");`,
    );

    this.addSql(
      `alter table "document" add constraint "document_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "document" add constraint "document_traveller_id_foreign" foreign key ("traveller_id") references "traveller" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "traveller" add constraint "traveller_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
    for (const slot of ['avatar', 'passport', 'signature', 'visa']) {
      this.addSql(
        `alter table "traveller" add constraint "traveller_${slot}_document_id_foreign" foreign key ("${slot}_document_id") references "document" ("id") on update cascade;`,
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "traveller" cascade;`);
    this.addSql(`drop table if exists "document" cascade;`);
  }
}
