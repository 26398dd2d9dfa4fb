import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123092520_Initial } from './Migration20261123092520_Initial';
import { Migration20261123120000_DocumentsTravellers } from './Migration20261123120000_DocumentsTravellers';
import { Migration20261123130200_RateLimit } from './Migration20261123130200_RateLimit';

/** Committed migrations in the order they run. New ones are appended, never edited. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261123092520_Initial', class: Migration20261123092520_Initial },
  { name: 'Migration20261123120000_DocumentsTravellers', class: Migration20261123120000_DocumentsTravellers },
  { name: 'Migration20261123130200_RateLimit', class: Migration20261123130200_RateLimit },
];
