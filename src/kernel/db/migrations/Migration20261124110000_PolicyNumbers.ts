import { Migration } from '@mikro-orm/migrations';

/**
 * Policy numbers (`POL-<year>-<seq>`): drawn from their own sequence when an order becomes paid,
 * unique across server processes like the order references. Orders paid before this migration get
 * theirs here, in the order they were paid, with the Kathmandu year of their payment.
 */
export class Migration20261124110000_PolicyNumbers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence "policy_number_seq" as bigint start 1;`);
    this.addSql(`alter table "insurance_order" add column "policy_number" text null;`);
    this.addSql(
      `alter table "insurance_order" add constraint "insurance_order_policy_number_unique" unique ("policy_number");`,
    );
    this.addSql(`with paid as (
        select "id", "paid_at" from "insurance_order"
         where "paid_at" is not null and "status" in ('PAID', 'COMPLETED', 'CLOSED')
         order by "paid_at", "id"),
      numbered as (select "id", "paid_at", nextval('policy_number_seq') as seq from paid)
      update "insurance_order" o
         set "policy_number" = 'POL-' || to_char(n."paid_at" at time zone 'Asia/Kathmandu', 'YYYY') || '-' || lpad(n.seq::text, 6, '0')
        from numbered n where o."id" = n."id";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "insurance_order" drop column "policy_number";`);
    this.addSql(`drop sequence if exists "policy_number_seq";`);
  }
}
