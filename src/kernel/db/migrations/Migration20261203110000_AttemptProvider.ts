import { Migration } from '@mikro-orm/migrations';

/**
 * The customer's mobile a pay request gave (Khalti refunds a bank-funded payment only to the
 * Khalti account of that number), and the provider that took each payment attempt (sandbox, khalti, esewa; null for cash), so its
 * lookups and refunds go there after CARD_GATEWAY_PROVIDER / WALLET_GATEWAY_PROVIDER change.
 * Back-filled here where a refund already recorded the provider it was made at; the rest is
 * filled from the configured providers when the service starts (backfillAttemptProviders), since
 * only the running configuration knows which provider served a gateway until now.
 */
export class Migration20261203110000_AttemptProvider extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "payment_attempt" add column "provider" text null, add column "customer_mobile" text null;`,
    );
    this.addSql(`update "payment_attempt" a set "provider" = r."provider"
      from (select distinct on ("attempt_id") "attempt_id", "provider" from "refund" where "provider" is not null and "provider" <> 'cash' order by "attempt_id", "created_at") r
      where r."attempt_id" = a."id" and a."gateway" <> 'cash';`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "payment_attempt" drop column if exists "provider", drop column if exists "customer_mobile";`,
    );
  }
}
