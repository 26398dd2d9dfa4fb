import type { EntityManager } from '@mikro-orm/postgresql';
import { importCatalogue, readCatalogueFile, SEED_CATALOGUE_FILE } from '../catalogue';
import { seedDemoPartners } from './demo-partners';
import { Route } from '../catalogue/entities/route';

export interface SeedOptions {
  /** Sandbox: keep the catalogue equal to the shipped file on every start. Production: only fill an empty one. */
  refreshCatalogue: boolean;
  demoPartners: boolean;
}

export async function seed(em: EntityManager, options: SeedOptions): Promise<void> {
  if (options.refreshCatalogue || (await em.count(Route)) === 0) {
    await importCatalogue(em, readCatalogueFile(SEED_CATALOGUE_FILE));
  }
  if (options.demoPartners) await seedDemoPartners(em);
}
