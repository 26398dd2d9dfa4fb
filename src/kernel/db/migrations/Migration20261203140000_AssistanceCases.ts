import { Migration } from '@mikro-orm/migrations';

/**
 * Assistance cases (issue 39): the case, its timeline, the documents attached to it, its
 * reference sequence, and the document type MEDICAL_REPORT. One open case per traveller is a
 * partial unique index, so that concurrent opens from any number of processes leave exactly one.
 */
export class Migration20261203140000_AssistanceCases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence "assistance_case_ref_seq" as bigint start 1;`);
    this.addSql(`create table "assistance_case" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "case_ref" text not null,
      "order_id" uuid not null references "insurance_order" ("id"),
      "traveller_id" uuid not null references "traveller" ("id"),
      "opened_by_company_id" uuid not null references "company" ("id"),
      "status" text not null check ("status" in ('RECEIVED', 'UNDER_REVIEW', 'AUTHORISED', 'DECLINED', 'COMPLETED', 'CLOSED', 'WITHDRAWN')),
      "category" text not null,
      "requested_service" text not null,
      "location" jsonb not null,
      "altitude_meters" integer not null,
      "summary" text not null,
      "reporter" jsonb not null,
      "proposed_operator" text null,
      "coverage_notes" jsonb not null,
      "opened_at" timestamptz not null,
      "reviewed_at" timestamptz null,
      "guarantee_ref" text null,
      "guarantee_operator" text null,
      "guarantee_cost_limit" numeric(12,2) null,
      "guarantee_currency" text null,
      "destination_hospital" text null,
      "authorised_at" timestamptz null,
      "decline_reason" text null,
      "withdrawal_reason" text null,
      "idempotency_key" uuid not null,
      "request_fingerprint" text not null,
      constraint "assistance_case_pkey" primary key ("id"),
      constraint "assistance_case_case_ref_unique" unique ("case_ref"),
      constraint "assistance_case_company_id_idempotency_key_unique" unique ("opened_by_company_id", "idempotency_key"));`);
    this.addSql(`create unique index "assistance_case_one_open_per_traveller" on "assistance_case" ("traveller_id")
      where "status" in ('RECEIVED', 'UNDER_REVIEW', 'AUTHORISED', 'COMPLETED');`);
    this.addSql(`create index "assistance_case_order_id_index" on "assistance_case" ("order_id");`);
    this.addSql(`create index "assistance_case_status_opened_at_index" on "assistance_case" ("status", "opened_at");`);
    this.addSql(`create table "assistance_case_entry" (
      "id" uuid not null,
      "case_id" uuid not null references "assistance_case" ("id"),
      "at" timestamptz not null,
      "kind" text not null,
      "by" text not null,
      "actor" text not null,
      "status" text not null,
      "previous_status" text null,
      "note" text null,
      "changes" jsonb not null,
      constraint "assistance_case_entry_pkey" primary key ("id"));`);
    this.addSql(`create index "assistance_case_entry_case_id_at_index" on "assistance_case_entry" ("case_id", "at");`);
    this.addSql(`create table "assistance_case_document" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "case_id" uuid not null references "assistance_case" ("id"),
      "document_id" uuid not null references "document" ("id"),
      constraint "assistance_case_document_pkey" primary key ("id"),
      constraint "assistance_case_document_document_id_unique" unique ("document_id"));`);
    this.addSql(`create index "assistance_case_document_case_id_index" on "assistance_case_document" ("case_id");`);
    this.addSql(`alter table "document" drop constraint if exists "document_document_type_check";`);
    this.addSql(
      `alter table "document" add constraint "document_document_type_check" check ("document_type" in ('AVATAR', 'PASSPORT', 'SIGNATURE', 'VISA', 'MEDICAL_REPORT'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "assistance_case_document";`);
    this.addSql(`drop table if exists "assistance_case_entry";`);
    this.addSql(`drop table if exists "assistance_case";`);
    this.addSql(`drop sequence if exists "assistance_case_ref_seq";`);
    this.addSql(`delete from "document" where "document_type" = 'MEDICAL_REPORT';`);
    this.addSql(`alter table "document" drop constraint if exists "document_document_type_check";`);
    this.addSql(
      `alter table "document" add constraint "document_document_type_check" check ("document_type" in ('AVATAR', 'PASSPORT', 'SIGNATURE', 'VISA'));`,
    );
  }
}
