import { Migration } from '@mikro-orm/migrations';

/**
 * Live payment providers: an attempt keeps the checkout its provider prepared, so a retried pay
 * answers the same page without asking again:
 * - `provider_ref`: the provider's own reference (Khalti's pidx; eSewa's transaction_uuid);
 * - `checkout_url`: where the customer's browser is sent.
 * Both are null while the provider has not answered (or for attempts made before this migration).
 */
export class Migration20261124100000_ProviderCheckout extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "payment_attempt" add column "provider_ref" text null, add column "checkout_url" text null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_attempt" drop column "provider_ref", drop column "checkout_url";`);
  }
}
