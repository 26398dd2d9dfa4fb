import type { EntityManager } from '@mikro-orm/postgresql';
import { importCatalogue, readCatalogueFile, SEED_CATALOGUE_FILE } from './modules/catalogue';
import { Route } from './modules/catalogue/entities/route';
import { seedDemoPartners } from './modules/partners';
import { seedDemoPromoCodes } from './modules/promos';

export interface SeedOptions {
  /** Sandbox: keep the catalogue equal to the shipped file on every start. Production: only fill an empty one. */
  refreshCatalogue: boolean;
  demoPartners: boolean;
}

/**
 * What a start puts in the database: the catalogue, and in a sandbox the demo partners with their
 * promo codes. Composed here because each is written by its own module (decision record 0111) and
 * promos builds on partners: the demo codes are promos' rows owned by partners' demo companies.
 *
 * Processes that start together (a cluster, several machines, parallel test workers) would
 * otherwise both see a company missing and both insert it: the second start failed on the
 * primary key. One transaction-scoped advisory lock lets them seed one after the other.
 */
export async function seed(em: EntityManager, options: SeedOptions): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended('seed', 0))`);
    if (options.refreshCatalogue || (await tx.count(Route)) === 0) {
      await importCatalogue(tx, readCatalogueFile(SEED_CATALOGUE_FILE));
    }
    if (options.demoPartners) {
      await seedDemoPartners(tx);
      await seedDemoPromoCodes(tx);
    }
  });
}
