import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { newAccessToken, issueClientSecret, tokenHash } from '../../src/modules/auth/rules/credential-secret';
import { initOrm } from '../../src/database';
import { migrate, type Orm } from '../../src/kernel/db/orm';
import { listenForTokenCheckChanges, type TokenCheckListener } from '../../src/modules/auth/token-check-listener';
import { AccessToken } from '../../src/modules/auth/entities/access-token';
import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { Credential } from '../../src/modules/auth/entities/credential';
import { createLogger } from '../../src/kernel/logging/logger';
import { authenticate } from '../../src/modules/auth/authentication';
import { TokenCheckCache } from '../../src/modules/auth/token-check-cache';
import { until } from '../support/eventually';

const DATABASE_URL = process.env.TEST_DATABASE_URL as string;
let orm: Orm;

beforeAll(async () => {
  orm = await initOrm(DATABASE_URL, 2);
  await migrate(orm);
});
afterAll(() => orm.close());

/** A company, a credential and a live token written straight to the database. */
async function tokenOfNewPartner(): Promise<{ token: string; clientId: string; companyId: string }> {
  const em = orm.em.fork();
  const company = em.create(Company, {
    name: `Listener Treks ${randomBytes(3).toString('hex')}`,
    type: CompanyType.TravelAgency,
    commissionPercent: '5.00',
  });
  const credential = em.create(Credential, {
    clientId: `listener-${randomBytes(4).toString('hex')}`,
    secretHash: issueClientSecret().secretHash,
    company,
  });
  const token = newAccessToken();
  em.create(AccessToken, { tokenHash: tokenHash(token), credential, expiresAt: new Date(Date.now() + 3_600_000) });
  await em.flush();
  return { token, clientId: credential.clientId, companyId: company.id };
}

/** How long the listener may take to connect or to notice it was cut off, and a NOTIFY to arrive. */
const CONNECTING = { timeoutMs: 5000, intervalMs: 10 };
const NOTIFIED = { timeoutMs: 2000, intervalMs: 10 };

async function terminateListener(applicationName: string): Promise<number> {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * An entity manager whose bearer check reads the database and then waits for `release()` before
 * answering: a check that was in flight when a revocation committed.
 */
function entityManagerHeldAfterItsRead() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const read = new Promise<void>((resolve) => (reached = resolve));
  const real = orm.em.fork();
  // Only what runPrepared uses: the bearer check runs past the ORM, on its pool.
  const em = {
    isInTransaction: () => false,
    getConnection: () => ({
      getNativeClient: async () => {
        const pool = await real.getConnection().getNativeClient();
        return {
          query: async (statement: { name: string; text: string; values: unknown[] }) => {
            const result = await pool.query(statement);
            reached();
            await released;
            return result;
          },
        };
      },
    }),
  } as unknown as typeof real;
  return { em, read, release };
}

describe('the bearer check cache and its LISTEN connection', () => {
  const logger = createLogger('silent');
  let cache: TokenCheckCache;
  let listener: TokenCheckListener | undefined;
  const applicationName = `token-check-test-${randomUUID()}`;

  beforeEach(() => {
    cache = new TokenCheckCache();
  });
  afterEach(() => listener?.close());

  it('when the credential is revoked in another transaction, then the NOTIFY drops the cached check and the token is refused', async () => {
    listener = listenForTokenCheckChanges(DATABASE_URL, cache, logger, { applicationName });
    await until('the listener to connect', () => cache.isListening, CONNECTING);
    const partner = await tokenOfNewPartner();
    await authenticate(orm.em.fork(), partner.token, cache);
    expect(cache.get(tokenHash(partner.token))?.companyId).toBe(partner.companyId);

    await orm.em.fork().nativeUpdate(Credential, { clientId: partner.clientId }, { revokedAt: new Date() });
    await until('the NOTIFY to reach the cache', () => cache.get(tokenHash(partner.token)) === undefined, NOTIFIED);
    await expect(authenticate(orm.em.fork(), partner.token, cache)).rejects.toMatchObject({
      kind: 'unauthenticated',
      message: 'Credential has been revoked',
    });
  });

  it('when the credential is revoked after a check read the database but before it stored its answer, then the answer is not kept and the next check refuses the token', async () => {
    listener = listenForTokenCheckChanges(DATABASE_URL, cache, logger, { applicationName });
    await until('the listener to connect', () => cache.isListening, CONNECTING);
    const partner = await tokenOfNewPartner();
    const { em, read, release } = entityManagerHeldAfterItsRead();

    const checking = authenticate(em, partner.token, cache);
    await read;
    const generation = cache.currentGeneration;
    await orm.em.fork().nativeUpdate(Credential, { clientId: partner.clientId }, { revokedAt: new Date() });
    await until('the NOTIFY to reach the cache', () => cache.currentGeneration > generation, NOTIFIED);
    release();

    // The held check read the credential before the revocation: it answers, but it is not kept.
    expect((await checking).companyId).toBe(partner.companyId);
    expect(cache.get(tokenHash(partner.token))).toBeUndefined();
    await expect(authenticate(orm.em.fork(), partner.token, cache)).rejects.toMatchObject({
      kind: 'unauthenticated',
      message: 'Credential has been revoked',
    });
  });

  it('when the listening connection is killed, then the cache is emptied and bypassed, so a token revoked meanwhile is refused before the listener is back', async () => {
    // A minute of backoff: the listener stays down for the whole test.
    listener = listenForTokenCheckChanges(DATABASE_URL, cache, logger, { applicationName, backoffMs: 60_000 });
    await until('the listener to connect', () => cache.isListening, CONNECTING);
    const revoked = await tokenOfNewPartner();
    const other = await tokenOfNewPartner();
    await authenticate(orm.em.fork(), revoked.token, cache);
    expect(cache.size).toBe(1);

    expect(await terminateListener(applicationName)).toBe(1);
    await until('the listener to notice it was cut off', () => !cache.isListening, CONNECTING);
    expect(cache.size).toBe(0);

    // Its NOTIFY reaches no one: only the bypass keeps the token out.
    await orm.em.fork().nativeUpdate(Credential, { clientId: revoked.clientId }, { revokedAt: new Date() });
    await expect(authenticate(orm.em.fork(), revoked.token, cache)).rejects.toMatchObject({
      kind: 'unauthenticated',
      message: 'Credential has been revoked',
    });
    // And nothing checked meanwhile is kept.
    await authenticate(orm.em.fork(), other.token, cache);
    expect(cache.size).toBe(0);
  });

  it('when the listening connection is killed, then the listener reconnects and the cache is used again', async () => {
    listener = listenForTokenCheckChanges(DATABASE_URL, cache, logger, { applicationName, backoffMs: 50 });
    await until('the listener to connect', () => cache.isListening, CONNECTING);
    expect(await terminateListener(applicationName)).toBe(1);
    await until('the listener to notice it was cut off', () => !cache.isListening, CONNECTING);
    await until('the listener to reconnect', () => cache.isListening, CONNECTING);
    const partner = await tokenOfNewPartner();
    await authenticate(orm.em.fork(), partner.token, cache);
    expect(cache.size).toBe(1);
    await orm.em.fork().nativeUpdate(Company, { id: partner.companyId }, { active: false });
    await until('the NOTIFY to reach the cache', () => cache.size === 0, NOTIFIED);
  });

  it('when a token is revoked or deleted by hand (psql), then the triggers announce it too', async () => {
    listener = listenForTokenCheckChanges(DATABASE_URL, cache, logger, { applicationName });
    await until('the listener to connect', () => cache.isListening, CONNECTING);
    const [revoked, deleted] = [await tokenOfNewPartner(), await tokenOfNewPartner()];
    for (const partner of [revoked, deleted]) await authenticate(orm.em.fork(), partner.token, cache);
    expect(cache.size).toBe(2);
    const client = new Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query('update access_token set revoked_at = now() where token_hash = $1', [
        tokenHash(revoked.token),
      ]);
      await until('the NOTIFY to reach the cache', () => cache.size === 1, NOTIFIED);
      await client.query('delete from access_token where token_hash = $1', [tokenHash(deleted.token)]);
      await until('the NOTIFY to reach the cache', () => cache.size === 0, NOTIFIED);
    } finally {
      await client.end();
    }
  });
});
