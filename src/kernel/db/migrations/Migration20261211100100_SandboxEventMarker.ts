import { Migration } from '@mikro-orm/migrations';

/**
 * Whether an event is synthetic, sent by its partner through POST /sandbox/events (decision
 * record 0090): GET /events filters on it. Every earlier event was real, except those the sandbox
 * helper sent, which are found by nothing in their body: they stay unmarked.
 */
export class Migration20261211100100_SandboxEventMarker extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_event" add column "sandbox" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_event" drop column if exists "sandbox";`);
  }
}
