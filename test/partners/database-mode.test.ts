import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { initOrm } from '../../src/database';
import { loadConfig } from '../../src/config';
import { migrate, type Orm } from '../../src/kernel/db/orm';
import { recordMode, recordedMode } from '../../src/kernel/db/database-mode';
import { Company } from '../../src/modules/partners/entities/company';
import { Credential } from '../../src/modules/auth/entities/credential';
import { DEMO_PARTNERS } from '../../src/modules/partners/demo-partners';
import { prepare } from '../../src/server';
import { buildServer } from '../support/built-server';
import { liveProvidersEnv } from '../support/live-providers-env';
import { createOwnDatabase, type OwnDatabase } from '../support/own-database';
import { testConfig } from '../support/test-server';

/**
 * Decision record 0093: a database records whether it is a sandbox or production, and no process
 * with the other mode's settings acts on it; the operator command line never seeds the demo
 * partners, whatever the operator's shell says.
 */
const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);
jest.setTimeout(240_000);

/** Every `ops` command that only reads, with made-up identifiers where one is needed. */
const READ_ONLY_COMMANDS = [
  ['company', 'list'],
  ['promo', 'list'],
  ['demo'],
  ['case', 'list'],
  ['case', 'show', 'CASE-2030-000001'],
  ['order', 'show', 'ORD-2030-000001-1789892411482'],
  ['payment', 'show', 'PAY-2030-000001'],
  ['payment', 'refunds'],
  ['refund', 'list'],
  ['refund', 'show', 'RFD-2030-000001'],
  ['webhook', 'list', DEMO_PARTNERS[0].companyId],
  ['webhook', 'deliveries', DEMO_PARTNERS[0].companyId],
  ['commission', 'statement', '--period', '2030-09'],
];

async function ops(env: Record<string, string>, args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

async function withOrm<T>(url: string, work: (orm: Orm) => Promise<T>): Promise<T> {
  const orm = await initOrm(url, 2);
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

/** Demo credentials and demo companies in a database: anything the published secrets could reach. */
const demoRows = (url: string) =>
  withOrm(url, async (orm) => {
    const em = orm.em.fork();
    const credentials = await em.count(Credential, {
      clientId: { $in: DEMO_PARTNERS.map((partner) => partner.clientId) },
    });
    const companies = await em.count(Company, { id: { $in: DEMO_PARTNERS.map((partner) => partner.companyId) } });
    return credentials + companies;
  });

const productionSettings = (url: string) => ({ NODE_ENV: 'production', ...liveProvidersEnv(), DATABASE_URL: url });

describe('a production database and the operator command line', () => {
  let production: OwnDatabase;

  beforeAll(async () => {
    buildServer();
    production = await createOwnDatabase('production_mode');
    await withOrm(production.url, async (orm) => {
      await migrate(orm);
      await recordMode(orm.em.fork(), 'production');
    });
  });
  afterAll(() => production.drop());

  it('when an operator runs any read-only command from a shell without NODE_ENV=production, then it refuses in one line and plants no demo partner', async () => {
    for (const command of READ_ONLY_COMMANDS) {
      const result = await ops({ DATABASE_URL: production.url }, command);
      if (command[0] === 'demo') {
        // It prints the published demo credentials from the code, without opening the database.
        expect(result.code).toBe(0);
        continue;
      }
      expect({ command, code: result.code }).toEqual({ command, code: 1 });
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('this database is a production database');
    }
    expect(await demoRows(production.url)).toBe(0);
  });

  it("when an operator runs every read-only command with the deployment's settings, then each acts and none plants a demo partner", async () => {
    for (const command of READ_ONLY_COMMANDS) {
      const result = await ops(productionSettings(production.url), command);
      expect(result.stderr).not.toContain('Refusing');
    }
    expect(await demoRows(production.url)).toBe(0);
  });
});

describe('a server and a database of the other mode', () => {
  it('when a sandbox server starts on a production database, then it refuses before seeding anything', async () => {
    const database = await createOwnDatabase('production_mode');
    try {
      await withOrm(database.url, async (orm) => {
        await migrate(orm);
        await recordMode(orm.em.fork(), 'production');
        await expect(prepare(orm, testConfig({ DATABASE_URL: database.url }))).rejects.toThrow(
          /^Refusing to act: this database is a production database and this process runs with sandbox settings/,
        );
      });
      expect(await demoRows(database.url)).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('when a production server starts on a database a sandbox server started on first, then it refuses; the sandbox one is recorded at its first start', async () => {
    const database = await createOwnDatabase('sandbox_mode');
    try {
      await withOrm(database.url, async (orm) => {
        await prepare(orm, testConfig({ DATABASE_URL: database.url }));
        expect(await recordedMode(orm.em.fork())).toBe('sandbox');
        await expect(prepare(orm, loadConfig(productionSettings(database.url)))).rejects.toThrow(
          /^Refusing to act: this database is a sandbox database and this process runs with production settings/,
        );
        expect(await recordedMode(orm.em.fork())).toBe('sandbox');
      });
    } finally {
      await database.drop();
    }
  });
});
