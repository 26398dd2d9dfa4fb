import { Migration } from '@mikro-orm/migrations';

/** A traveller's optional name as in the passport's machine-readable zone, printed on the certificate beside the native-script name. */
export class Migration20261203130000_PassportNames extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "traveller" add column "name_as_in_passport" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "traveller" drop column "name_as_in_passport";`);
  }
}
