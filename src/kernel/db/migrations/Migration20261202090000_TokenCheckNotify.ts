import { Migration } from '@mikro-orm/migrations';

/**
 * Every change that can end a bearer token NOTIFies `token_check_changed` from a trigger, so in
 * the transaction of the change whoever makes it (the service, the operator CLI, an operator's
 * psql): the servers' token-check caches drop the entry when it commits (docs/decisions/0045-quote-and-booking-flow-performance-on-node-24.md).
 * Payloads: `token:<hash>`, `credential:<id>`, `company:<id>`; `all` after a TRUNCATE.
 */
export class Migration20261202090000_TokenCheckNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "notify_token_check_change"() returns trigger language plpgsql as $$
begin
  if tg_level = 'STATEMENT' then
    perform pg_notify('token_check_changed', 'all');
  elsif tg_table_name = 'access_token' then
    perform pg_notify('token_check_changed', 'token:' || old.token_hash);
  else
    perform pg_notify('token_check_changed', tg_argv[0] || ':' || old.id);
  end if;
  return null;
end $$;`);
    // A token: revoked, re-pointed, shortened, or deleted while it could still be used.
    this.addSql(`create trigger "access_token_check_changed" after update on "access_token" for each row
      when (old.revoked_at is distinct from new.revoked_at or old.expires_at is distinct from new.expires_at
         or old.token_hash is distinct from new.token_hash or old.credential_id is distinct from new.credential_id)
      execute function "notify_token_check_change"();`);
    this.addSql(`create trigger "access_token_check_deleted" after delete on "access_token" for each row
      when (old.revoked_at is null and old.expires_at > now()) execute function "notify_token_check_change"();`);
    // A credential: revoked (or un-revoked), moved to another company, deleted.
    this.addSql(`create trigger "credential_check_changed" after update on "credential" for each row
      when (old.revoked_at is distinct from new.revoked_at or old.company_id is distinct from new.company_id)
      execute function "notify_token_check_change"('credential');`);
    this.addSql(
      `create trigger "credential_check_deleted" after delete on "credential" for each row execute function "notify_token_check_change"('credential');`,
    );
    // A company: deactivated, or anything the check returns changed (name, type, commission), deleted.
    this.addSql(`create trigger "company_check_changed" after update on "company" for each row
      when ((old.active, old.name, old.type, old.commission_percent) is distinct from (new.active, new.name, new.type, new.commission_percent))
      execute function "notify_token_check_change"('company');`);
    this.addSql(
      `create trigger "company_check_deleted" after delete on "company" for each row execute function "notify_token_check_change"('company');`,
    );
    for (const table of ['access_token', 'credential', 'company']) {
      this.addSql(
        `create trigger "${table}_check_truncated" after truncate on "${table}" for each statement execute function "notify_token_check_change"();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const [table, triggers] of Object.entries({
      access_token: ['access_token_check_changed', 'access_token_check_deleted'],
      credential: ['credential_check_changed', 'credential_check_deleted'],
      company: ['company_check_changed', 'company_check_deleted'],
    })) {
      for (const trigger of [...triggers, `${table}_check_truncated`])
        this.addSql(`drop trigger if exists "${trigger}" on "${table}";`);
    }
    this.addSql(`drop function if exists "notify_token_check_change"();`);
  }
}
