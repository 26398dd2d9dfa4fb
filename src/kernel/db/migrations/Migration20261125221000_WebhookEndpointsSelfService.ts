import { Migration } from '@mikro-orm/migrations';

/**
 * Self-service webhook endpoints (issue 29): a company may have several endpoints (an id of their
 * own, the event types each receives, a note, an on/off switch), so an event now fans out to one
 * delivery per subscribed endpoint. `webhook_delivery` becomes that per-endpoint delivery (its
 * status, lease and queue hand-over move there from the event), and the log of tries it used to
 * be is renamed `webhook_delivery_try`. Existing events, each sent to the company's one endpoint,
 * become one delivery each, with their tries.
 */
export class Migration20261125221000_WebhookEndpointsSelfService extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop constraint "webhook_endpoint_pkey";`);
    this.addSql(
      `alter table "webhook_endpoint" add column "id" uuid not null default gen_random_uuid(), add column "events" text[] not null default '{*}', add column "description" text null, add column "enabled" boolean not null default true;`,
    );
    this.addSql(`alter table "webhook_endpoint" add primary key ("id");`);
    this.addSql(`create index "webhook_endpoint_company_index" on "webhook_endpoint" ("company_id", "created_at");`);

    this.addSql(`alter table "webhook_delivery" rename to "webhook_delivery_try";`);
    this.addSql(`alter index "webhook_delivery_pkey" rename to "webhook_delivery_try_pkey";`);
    this.addSql(`alter index "webhook_delivery_event_index" rename to "webhook_delivery_try_event_index";`);

    this.addSql(`create table "webhook_delivery" (
      "id" uuid not null primary key default gen_random_uuid(),
      "event_id" text not null references "webhook_event" ("id") on delete cascade,
      "endpoint_id" uuid not null references "webhook_endpoint" ("id") on delete cascade,
      "company_id" uuid not null references "company" ("id") on delete cascade,
      "event_type" text not null,
      "status" text not null default 'PENDING' check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED')),
      "attempts" int not null default 0,
      "enqueued_at" timestamptz null,
      "lease_until" timestamptz null,
      "next_retry_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      unique ("event_id", "endpoint_id"));`);
    // The relay looks only at deliveries not yet handed to the queue; the log reads a company's newest first.
    this.addSql(
      `create index "webhook_delivery_unenqueued_index" on "webhook_delivery" ("created_at") where "enqueued_at" is null;`,
    );
    this.addSql(
      `create index "webhook_delivery_company_created_index" on "webhook_delivery" ("company_id", "created_at" desc, "id");`,
    );
    this.addSql(
      `create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "created_at" desc);`,
    );

    // Each event handed to the queue went to the company's one endpoint: that is its delivery.
    // One still pending is handed over again (its old job, keyed by event, then finds nothing to do).
    this
      .addSql(`insert into "webhook_delivery" ("event_id", "endpoint_id", "company_id", "event_type", "status", "attempts", "enqueued_at", "created_at")
      select e."id", ep."id", e."company_id", e."type",
             case e."status" when 'DELIVERED' then 'SUCCEEDED' when 'FAILED' then 'FAILED' else 'PENDING' end,
             e."attempts", case when e."status" = 'PENDING' then null else e."enqueued_at" end, e."created_at"
        from "webhook_event" e join "webhook_endpoint" ep on ep."company_id" = e."company_id"
       where e."enqueued_at" is not null and e."status" <> 'NO_ENDPOINT';`);

    this.addSql(`alter table "webhook_event" drop constraint "webhook_event_status_check";`);
    this.addSql(`update "webhook_event" e set "status" = case
        when exists (select 1 from "webhook_delivery" d where d."event_id" = e."id") then 'DISPATCHED'
        when e."enqueued_at" is null then 'PENDING' else 'NO_ENDPOINT' end;`);
    this.addSql(
      `alter table "webhook_event" add constraint "webhook_event_status_check" check ("status" in ('PENDING', 'DISPATCHED', 'NO_ENDPOINT'));`,
    );
    this.addSql(
      `alter table "webhook_event" drop column "attempts", drop column "delivered_at", drop column "lease_until";`,
    );

    this.addSql(
      `alter table "webhook_delivery_try" add column "delivery_id" uuid null references "webhook_delivery" ("id") on delete cascade;`,
    );
    this.addSql(
      `update "webhook_delivery_try" t set "delivery_id" = d."id" from "webhook_delivery" d where d."event_id" = t."event_id";`,
    );
    this.addSql(`delete from "webhook_delivery_try" where "delivery_id" is null;`);
    this.addSql(`alter table "webhook_delivery_try" alter column "delivery_id" set not null;`);
    this.addSql(
      `create index "webhook_delivery_try_delivery_index" on "webhook_delivery_try" ("delivery_id", "attempt");`,
    );
  }
}
