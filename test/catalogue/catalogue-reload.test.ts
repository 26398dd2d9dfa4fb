import { Client, type Notification } from 'pg';
import type { CatalogueFile } from '../../src/modules/catalogue/catalogue-schema';
import { Catalogue, readCatalogue, type CatalogueSnapshot } from '../../src/modules/catalogue/catalogue';
import { CATALOGUE_CHANNEL, importCatalogue } from '../../src/modules/catalogue/catalogue-import';
import { announcedVersion } from '../../src/modules/catalogue/catalogue-listener';
import { useTestServer } from '../support/test-server';
import { eventually } from '../support/eventually';
import { retiredTsumCatalogue } from '../support/catalogue-fixtures';

const { server } = useTestServer();

const importOf = (catalogue: CatalogueFile) => importCatalogue(server.orm.em.fork(), catalogue);

/** A LISTEN on the catalogue channel, as a server holds it. */
async function catalogueChannel() {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  const heard: (number | undefined)[] = [];
  client.on('notification', (message: Notification) => heard.push(announcedVersion(message.payload)));
  await client.connect();
  await client.query(`listen ${CATALOGUE_CHANNEL}`);
  return { heard, close: () => client.end() };
}

/** The places a load can be overtaken by an import: before it reads the rows, and after it read them but before it is served. */
type Moment = 'before the load reads' | 'after the load read, before it is served';

/**
 * A catalogue whose first load stops at `moment` until released: the load that was running when
 * the operator's import committed and its notification arrived.
 */
function catalogueHeldAt(moment: Moment) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  let loads = 0;
  const read = async (): Promise<CatalogueSnapshot> => {
    loads += 1;
    if (loads > 1) return readCatalogue(server.orm.em.fork());
    if (moment === 'before the load reads') {
      reached();
      await released;
    }
    const snapshot = await readCatalogue(server.orm.em.fork());
    if (moment === 'after the load read, before it is served') {
      reached();
      await released;
    }
    return snapshot;
  };
  return { catalogue: new Catalogue(read), held, release };
}

describe('catalogue changes reach running servers', () => {
  it('announces an import only when it commits, with the version it wrote', async () => {
    const channel = await catalogueChannel();
    try {
      const before = (await readCatalogue(server.orm.em.fork())).version;
      let heardBeforeCommit: (number | undefined)[] = [];
      // The import inside a transaction that commits late: the notification must wait for that commit.
      await server.orm.em.fork().transactional(async (tx) => {
        await importCatalogue(tx, retiredTsumCatalogue('Tsum Valley Special'));
        await eventually(
          () => channel.heard.length,
          (count) => count > 0,
          { timeoutMs: 1_000, intervalMs: 50 },
        ).catch(() => undefined);
        heardBeforeCommit = [...channel.heard];
      });
      expect(heardBeforeCommit).toEqual([]);
      const heard = await eventually(
        () => channel.heard,
        (versions) => versions.length > 0,
        { timeoutMs: 5_000, intervalMs: 20 },
      );
      expect(heard).toEqual([before + 1]);
      expect((await readCatalogue(server.orm.em.fork())).version).toBe(before + 1);
    } finally {
      await channel.close();
    }
  });

  it.each<Moment>(['before the load reads', 'after the load read, before it is served'])(
    'serves the announced catalogue when the import commits while a load is held %s',
    async (moment) => {
      const original = retiredTsumCatalogue('Tsum Valley Special');
      await importOf(original);
      const { catalogue, held, release } = catalogueHeldAt(moment);

      const running = catalogue.current();
      await held;
      await importOf(retiredTsumCatalogue('Tsum Valley Special (2027)', original.ids));
      const announced = (await readCatalogue(server.orm.em.fork())).version;
      const reloaded = catalogue.reloadTo(announced);
      release();
      await running;
      await reloaded;

      const snapshot = await catalogue.current();
      expect(snapshot.version).toBe(announced);
      expect(snapshot.ctgById.get(original.ids.ctgId)?.name).toBe('Tsum Valley Special (2027)');
    },
  );

  it('serves the announced catalogue when the reload runs alone after the commit', async () => {
    const original = retiredTsumCatalogue('Tsum Valley Special');
    await importOf(original);
    const catalogue = new Catalogue(() => readCatalogue(server.orm.em.fork()));
    await catalogue.current();
    await importOf(retiredTsumCatalogue('Tsum Valley Special (2027)', original.ids));
    await catalogue.reloadTo((await readCatalogue(server.orm.em.fork())).version);
    expect((await catalogue.current()).ctgById.get(original.ids.ctgId)?.name).toBe('Tsum Valley Special (2027)');
  });

  it('refuses to call a reload done while the announced version cannot be read', async () => {
    const catalogue = new Catalogue(() => readCatalogue(server.orm.em.fork()));
    const newest = (await catalogue.current()).version;
    await expect(catalogue.reloadTo(newest + 1000)).rejects.toThrow(`catalogue version ${newest + 1000} was announced`);
  });

  it("the running server's listener reloads to the version an import announces", async () => {
    const original = retiredTsumCatalogue('Tsum Valley Special');
    await importOf(original);
    await importOf(retiredTsumCatalogue('Tsum Valley Special (2027)', original.ids));
    const announced = (await readCatalogue(server.orm.em.fork())).version;
    const version = await eventually(
      async () => (await server.catalogue.current()).version,
      (loaded) => loaded >= announced,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(version).toBe(announced);
    expect((await server.catalogue.current()).ctgById.get(original.ids.ctgId)?.name).toBe('Tsum Valley Special (2027)');
  });
});
