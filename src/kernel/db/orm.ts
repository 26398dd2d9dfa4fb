import 'reflect-metadata';
import { MikroORM, type Options } from '@mikro-orm/core';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { migrationsList } from './migrations';
import { ormLoggerFactory, stderrSink, type OrmLogSink } from './orm-log';
import { AfterCommitSubscriber } from './after-commit';

export type Orm = MikroORM<PostgreSqlDriver>;

/** An entity class the ORM maps; each module lists its own, and the service's list is the union (src/database.ts). */
export type EntityClass = NonNullable<Options['entities']>[number];

export function ormOptions(
  clientUrl: string,
  entities: EntityClass[],
  poolMax = 10,
  log: OrmLogSink = stderrSink,
): Partial<Options<PostgreSqlDriver>> {
  return {
    driver: PostgreSqlDriver,
    clientUrl,
    entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: true },
    extensions: [Migrator],
    // Migrations are listed in code: neither ts-node nor a dist/ folder scan is needed to find them.
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: poolMax },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    loggerFactory: ormLoggerFactory(log),
    colors: false,
    // Work a transaction leaves for after its commit (after-commit.ts: the refund executor's kick).
    subscribers: [new AfterCommitSubscriber()],
  };
}

export async function initOrm(
  clientUrl: string,
  entities: EntityClass[],
  poolMax?: number,
  log?: OrmLogSink,
): Promise<Orm> {
  return MikroORM.init<PostgreSqlDriver>(ormOptions(clientUrl, entities, poolMax, log));
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up();
}
