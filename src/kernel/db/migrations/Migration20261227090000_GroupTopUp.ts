import { Migration } from '@mikro-orm/migrations';

/**
 * A group's extension is paid by one top-up for every member (decision record 0108): the top-up's
 * reference is shared by one amendment per member, so it is unique per order, no longer alone.
 */
export class Migration20261227090000_GroupTopUp extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_amendment" drop constraint if exists "order_amendment_payment_ref_unique";`);
    this.addSql(
      `alter table "order_amendment" add constraint "order_amendment_payment_ref_order_id_unique" unique ("payment_ref", "order_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "order_amendment" drop constraint if exists "order_amendment_payment_ref_order_id_unique";`,
    );
    this.addSql(
      `alter table "order_amendment" add constraint "order_amendment_payment_ref_unique" unique ("payment_ref");`,
    );
  }
}
