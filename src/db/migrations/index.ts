import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123092520_Initial } from './Migration20261123092520_Initial';

/** Committed migrations in the order they run. New ones are appended, never edited. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261123092520_Initial', class: Migration20261123092520_Initial },
];
