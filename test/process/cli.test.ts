import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { stringify } from 'yaml';
import { Ctg } from '../../src/entities/ctg';
import { Route } from '../../src/entities/route';
import type { RunningServer } from '../../src/server';
import { buildServer } from '../support/built-server';
import { startTestServer } from '../support/test-server';

const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');

function ops(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: process.env.TEST_DATABASE_URL },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const json = (...args: string[]) => {
  const result = ops(...args, '--json');
  if (result.code !== 0) throw new Error(`ops ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
};

/** Every command path, found by walking the "Commands:" sections of the help pages themselves. */
function commandPaths(parent: string[] = []): string[][] {
  const help = ops(...parent, '--help').stdout;
  const section = help.split('Commands:')[1];
  if (!section) return [parent];
  const names = [...section.matchAll(/^ {2}([a-z-]+)/gm)].map((match) => match[1]).filter((name) => name !== 'help');
  return [parent, ...names.flatMap((name) => commandPaths([...parent, name]))];
}

/** A catalogue file of one retired route and one retired package for it: nothing partners would see. */
function catalogueFile(overrides: { ctgName?: string } = {}) {
  const routeId = randomUUID();
  const ctgId = randomUUID();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-')), 'catalogue.yaml');
  const content = {
    currency: 'NPR',
    insuranceCompanies: ['Himal Shield Insurance Ltd.'],
    routes: [
      { id: routeId, name: 'Tsum Valley Trek', region: 'Gorkha', trekName: 'Tsum Valley', routeType: 'TEAHOUSE', routeCategory: 'RESTRICTED_AREA', maxAltitude: 3700, active: false },
    ],
    ctgs: [
      {
        id: ctgId,
        code: `TSUM-${ctgId.slice(0, 8)}`,
        name: overrides.ctgName ?? 'Tsum Valley Special',
        insuranceProductId: 'HSI-TSUM',
        insuranceCompany: 'Himal Shield Insurance Ltd.',
        productType: 'SPECIAL_ROUTE',
        routeId,
        minAltitude: 3001,
        maxAltitude: 4000,
        minAge: 1,
        maxAge: 70,
        baseDurationDays: 12,
        baseCtgPrice: 9100.5,
        extraDayPrice: 600,
        displayOrder: 900,
        active: false,
        coverage: [{ code: 'EMERGENCY_EVACUATION', name: 'Helicopter emergency evacuation', coverageAmount: 1500000 }],
        includedDevices: [{ id: randomUUID(), name: 'Satellite messenger', description: 'Two-way satellite messenger', quantity: 1, dailyPrice: 150 }],
      },
    ],
  };
  fs.writeFileSync(file, stringify(content));
  return { file, routeId, ctgId };
}

let server: RunningServer;

beforeAll(async () => {
  buildServer();
  server = await startTestServer();
}, 120_000);
afterAll(() => server.stop());

describe('operator command line', () => {
  it('has --help on every command, and --json on every command that does something', () => {
    const paths = commandPaths();
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining(['company create', 'company deactivate', 'company list', 'credential issue', 'credential revoke', 'catalogue import', 'demo']),
    );
    for (const commandPath of paths) {
      const help = ops(...commandPath, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: ops/);
      const isLeaf = !help.stdout.includes('Commands:');
      if (isLeaf) expect(help.stdout).toContain('--json');
    }
  });

  it('prints JSON for every command with --json', () => {
    const company = json('company', 'create', '--name', 'Khumbu Treks', '--type', 'TRAVEL_AGENCY', '--commission', '8');
    expect(company).toMatchObject({ id: expect.any(String), name: 'Khumbu Treks', type: 'TRAVEL_AGENCY' });
    const credential = json('credential', 'issue', '--company', company.id);
    expect(credential).toEqual({ clientId: expect.stringMatching(/^pk_/), clientSecret: expect.any(String), companyId: company.id });
    expect(json('company', 'list').map((c: { id: string }) => c.id)).toContain(company.id);
    expect(json('credential', 'revoke', credential.clientId)).toMatchObject({ clientId: credential.clientId, revokedAt: expect.any(String) });
    expect(json('company', 'deactivate', company.id)).toEqual({ id: company.id, active: false });
    expect(json('demo').map((p: { clientId: string }) => p.clientId)).toContain('demo-everest-trails');
  });

  it('reports a failure as JSON on stderr with --json, and exits 1', () => {
    const result = ops('company', 'deactivate', randomUUID(), '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ error: expect.stringMatching(/^no company /) });
  });
});

describe('ops catalogue import FILE.yaml', () => {
  it('inserts the routes, packages, coverage and devices of the file', async () => {
    const { file, routeId, ctgId } = catalogueFile();
    expect(json('catalogue', 'import', file)).toEqual({ file, dryRun: false, routes: 1, ctgs: 1 });
    const em = server.orm.em.fork();
    expect(await em.findOneOrFail(Route, routeId)).toMatchObject({ name: 'Tsum Valley Trek', active: false, maxAltitude: 3700 });
    const ctg = await em.findOneOrFail(Ctg, ctgId);
    expect(ctg).toMatchObject({ baseCtgPrice: 910_050, extraDayPrice: 60_000, active: false });
    expect(ctg.coverage).toEqual([{ code: 'EMERGENCY_EVACUATION', name: 'Helicopter emergency evacuation', coverageAmount: 150_000_000 }]);
    expect(ctg.includedDevices).toEqual([expect.objectContaining({ name: 'Satellite messenger', quantity: 1, dailyPrice: 15_000 })]);
  });

  it('updates entries by id on a second import, and running servers reload at once', async () => {
    const { file, ctgId } = catalogueFile();
    json('catalogue', 'import', file);
    await server.catalogue.reload();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Tsum Valley Special', 'Tsum Valley Special (2027)'));
    expect(json('catalogue', 'import', file)).toMatchObject({ routes: 1, ctgs: 1 });
    expect((await server.orm.em.fork().findOneOrFail(Ctg, ctgId)).name).toBe('Tsum Valley Special (2027)');
    // The server's snapshot is fresh (well inside its 30 s age), so only the NOTIFY can have changed it.
    const deadline = Date.now() + 5_000;
    let name: string | undefined;
    while (Date.now() < deadline && name !== 'Tsum Valley Special (2027)') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      name = (await server.catalogue.current()).ctgById.get(ctgId)?.name;
    }
    expect(name).toBe('Tsum Valley Special (2027)');
  });

  it('checks a file without writing on --dry-run', async () => {
    const { file, ctgId } = catalogueFile();
    expect(json('catalogue', 'import', file, '--dry-run')).toEqual({ file, dryRun: true, routes: 1, ctgs: 1 });
    expect(await server.orm.em.fork().findOne(Ctg, ctgId)).toBeNull();
  });

  it('refuses a bad file with the place of every problem and imports nothing', async () => {
    const { file, routeId } = catalogueFile();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('routeType: TEAHOUSE', 'routeType: HELICOPTER').replace('minAge: 1', 'minAge: 0'));
    const result = ops('catalogue', 'import', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('routes[0].routeType: must be one of TEAHOUSE, CAMPING, EXPEDITION, PEAK_CLIMBING');
    expect(result.stderr).toContain('ctgs[0].minAge: must be >= 1');
    expect(await server.orm.em.fork().findOne(Route, routeId)).toBeNull();
  });
});
