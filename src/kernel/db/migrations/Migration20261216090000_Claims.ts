import { Migration } from '@mikro-orm/migrations';

const DOCUMENT_TYPES_BEFORE = `'AVATAR', 'PASSPORT', 'SIGNATURE', 'VISA', 'MEDICAL_REPORT'`;
const CLAIM_DOCUMENT_TYPES = `'INVOICE', 'RECEIPT', 'POLICE_REPORT', 'TRAVEL_DOCUMENT', 'DEATH_CERTIFICATE'`;

/**
 * Claims (issue 48, decision record 0095): the claim, its items, the desk's decision on each item,
 * its timeline, its documents, its payout, its reference sequence, and the claim document types.
 * One claim per (company, Idempotency-Key) and one payout per claim are unique constraints; one
 * document attaches to one claim at most.
 */
export class Migration20261216090000_Claims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence "claim_ref_seq" as bigint start 1;`);
    this.addSql(`create table "claim" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "claim_ref" text not null,
      "order_id" uuid not null references "insurance_order" ("id"),
      "filed_by_company_id" uuid not null references "company" ("id"),
      "status" text not null check ("status" in ('SUBMITTED', 'UNDER_ASSESSMENT', 'INFORMATION_REQUESTED', 'APPROVED', 'PARTIALLY_APPROVED', 'DECLINED', 'PAID', 'CLOSED', 'WITHDRAWN')),
      "claim_type" text not null,
      "coverage_line" text not null,
      "incident_date" date not null,
      "incident_description" text not null,
      "location" text null,
      "altitude_meters" integer null,
      "assistance_case_id" uuid null references "assistance_case" ("id"),
      "payee" jsonb not null,
      "flags" jsonb not null,
      "filed_at" timestamptz not null,
      "approved_total" numeric(14,2) null,
      "excess_applied" numeric(14,2) null,
      "decline_reason" text null,
      "decision_note" text null,
      "decided_at" timestamptz null,
      "withdrawal_reason" text null,
      "idempotency_key" uuid not null,
      "request_fingerprint" text not null,
      constraint "claim_pkey" primary key ("id"),
      constraint "claim_claim_ref_unique" unique ("claim_ref"),
      constraint "claim_company_id_idempotency_key_unique" unique ("filed_by_company_id", "idempotency_key"));`);
    this.addSql(`create index "claim_order_id_index" on "claim" ("order_id");`);
    this.addSql(`create index "claim_status_filed_at_index" on "claim" ("status", "filed_at");`);
    this.addSql(`create table "claim_item" (
      "id" uuid not null,
      "claim_id" uuid not null references "claim" ("id"),
      "position" integer not null,
      "description" text not null,
      "amount" numeric(14,2) not null,
      "currency" text not null,
      "invoice_number" text not null,
      "provider_name" text not null,
      constraint "claim_item_pkey" primary key ("id"),
      constraint "claim_item_claim_id_position_unique" unique ("claim_id", "position"));`);
    this.addSql(`create index "claim_item_invoice_number_index" on "claim_item" (lower("invoice_number"));`);
    this.addSql(`create table "claim_item_decision" (
      "id" uuid not null,
      "item_id" uuid not null references "claim_item" ("id"),
      "approved_amount" numeric(14,2) not null,
      "exchange_rate" numeric(12,4) null,
      "rate_date" date null,
      "approved_npr" numeric(14,2) not null,
      "note" text null,
      "decided_at" timestamptz not null,
      constraint "claim_item_decision_pkey" primary key ("id"),
      constraint "claim_item_decision_item_id_unique" unique ("item_id"));`);
    this.addSql(`create table "claim_entry" (
      "id" uuid not null,
      "claim_id" uuid not null references "claim" ("id"),
      "at" timestamptz not null,
      "kind" text not null,
      "by" text not null,
      "actor" text not null,
      "status" text not null,
      "previous_status" text null,
      "note" text null,
      "document_ids" jsonb not null,
      constraint "claim_entry_pkey" primary key ("id"));`);
    this.addSql(`create index "claim_entry_claim_id_at_index" on "claim_entry" ("claim_id", "at");`);
    this.addSql(`create table "claim_document" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "claim_id" uuid not null references "claim" ("id"),
      "item_id" uuid null references "claim_item" ("id"),
      "document_id" uuid not null references "document" ("id"),
      constraint "claim_document_pkey" primary key ("id"),
      constraint "claim_document_document_id_unique" unique ("document_id"));`);
    this.addSql(`create index "claim_document_claim_id_index" on "claim_document" ("claim_id");`);
    this.addSql(`create table "claim_payout" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "claim_id" uuid not null references "claim" ("id"),
      "amount" numeric(14,2) not null,
      "method" text not null,
      "reference" text not null,
      "paid_on" date not null,
      "actor" text not null,
      constraint "claim_payout_pkey" primary key ("id"),
      constraint "claim_payout_claim_id_unique" unique ("claim_id"));`);
    this.addSql(`alter table "document" drop constraint if exists "document_document_type_check";`);
    this.addSql(
      `alter table "document" add constraint "document_document_type_check" check ("document_type" in (${DOCUMENT_TYPES_BEFORE}, ${CLAIM_DOCUMENT_TYPES}));`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['claim_payout', 'claim_document', 'claim_entry', 'claim_item_decision', 'claim_item', 'claim'])
      this.addSql(`drop table if exists "${table}";`);
    this.addSql(`drop sequence if exists "claim_ref_seq";`);
    this.addSql(`delete from "document" where "document_type" in (${CLAIM_DOCUMENT_TYPES});`);
    this.addSql(`alter table "document" drop constraint if exists "document_document_type_check";`);
    this.addSql(
      `alter table "document" add constraint "document_document_type_check" check ("document_type" in (${DOCUMENT_TYPES_BEFORE}));`,
    );
  }
}
