import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Catalogue } from '../../src/modules/catalogue/catalogue';
import { Route } from '../../src/modules/catalogue/entities/route';
import { useTestServer } from '../support/test-server';

const { server } = useTestServer();

/**
 * A catalogue whose first load reads the rows and then waits for `release()` before it finishes:
 * a load that was already running when the operator's import committed.
 */
function catalogueWithAHeldFirstLoad() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let read!: () => void;
  const firstLoadRead = new Promise<void>((resolve) => (read = resolve));
  let loads = 0;
  const forkEm = () => {
    const em = server.orm.em.fork();
    loads += 1;
    if (loads > 1) return em;
    let finds = 0;
    const find = em.find.bind(em);
    return Object.assign(em, {
      find: async (...args: Parameters<EntityManager['find']>) => {
        const rows = await find(...args);
        finds += 1;
        if (finds === 2) read();
        await released;
        return rows;
      },
    }) as EntityManager;
  };
  return { catalogue: new Catalogue(forkEm), firstLoadRead, release };
}

describe('the in-memory catalogue', () => {
  it('when a change is announced while a load that read the rows before it is still running, then the reload shows the change', async () => {
    const id = randomUUID();
    const em = server.orm.em.fork();
    em.create(Route, { id, name: 'Manaslu Circuit', region: 'Gorkha', trekName: 'Manaslu', routeType: 'TEAHOUSE', routeCategory: 'RESTRICTED_AREA', maxAltitude: 5106, active: false });
    await em.flush();
    const { catalogue, firstLoadRead, release } = catalogueWithAHeldFirstLoad();

    const running = catalogue.current();
    await firstLoadRead;
    await server.orm.em.fork().nativeUpdate(Route, { id }, { name: 'Manaslu Circuit (2027)' });
    const announced = catalogue.reload();
    release();
    await running;
    await announced;

    expect((await catalogue.current()).routeById.get(id)?.name).toBe('Manaslu Circuit (2027)');
  });
});
