import { Migration } from '@mikro-orm/migrations';

/**
 * The departure an order was booked with, kept from its first date change on: a change may move
 * the departure at most DEPARTURE_CHANGE_MAX_DAYS after it, however many changes come (issue 40).
 * Orders amended before are back-filled from their first DEPARTURE_CHANGED audit entry.
 */
export class Migration20261203120100_BookedDeparture extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "insurance_order" add column "booked_departure_date" date null;`);
    this.addSql(`update "insurance_order" o set "booked_departure_date" = (
      select (a."details"->'previous'->>'departureDate')::date from "audit_entry" a
       where a."order_id" = o."id" and a."action" = 'DEPARTURE_CHANGED' order by a."at" asc limit 1)
     where o."amended_at" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "insurance_order" drop column "booked_departure_date";`);
  }
}
