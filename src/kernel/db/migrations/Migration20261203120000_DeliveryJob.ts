import { Migration } from '@mikro-orm/migrations';

/**
 * The queue job that carries a delivery now: a retry by hand hands the delivery over again and
 * cancels the job it replaces, and a job that is not the delivery's own sends nothing, so a
 * delivery has at most one live job (issue 40, item 3). Deliveries handed over before have none:
 * their job is theirs.
 */
export class Migration20261203120000_DeliveryJob extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" add column "job_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop column "job_id";`);
  }
}
