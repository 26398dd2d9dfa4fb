import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { Ctg, type CoverageLine, type IncludedDevice } from './entities/ctg';
import { Route } from './entities/route';
import type { Minor } from '../../kernel/money';
import type { CatalogueCtg } from './catalogue-schema';

export interface RouteView {
  id: string;
  name: string;
  region: string;
  /** The airstrip its trekkers fly through (decision record 0102), or null. */
  area: string | null;
  trekName: string;
  routeType: Route['routeType'];
  routeCategory: Route['routeCategory'];
  maxAltitude: number;
  description: string;
  active: boolean;
}

/** A package as quotes read it: the catalogue file's fields, with money in minor units and every optional field filled. */
export type CtgView = Omit<
  CatalogueCtg,
  | 'baseCtgPrice'
  | 'extraDayPrice'
  | 'excess'
  | 'active'
  | 'description'
  | 'termsConditions'
  | 'coverage'
  | 'includedDevices'
> & {
  baseCtgPrice: Minor;
  extraDayPrice: Minor;
  excessAmount: Minor;
  active: boolean;
  description: string;
  termsConditions: string;
  coverage: CoverageLine[];
  includedDevices: IncludedDevice[];
};

export interface CatalogueSnapshot {
  /** The import that wrote it (catalogue_version), read in the same database snapshot as the rows. */
  version: number;
  routes: RouteView[];
  ctgs: CtgView[];
  routeById: Map<string, RouteView>;
  ctgById: Map<string, CtgView>;
}

/** How many loads a reload to an announced version may take before it gives up (two always suffice: see reloadTo). */
const LOADS_TO_A_VERSION = 3;

/**
 * Routes and packages held in memory: they are read on every quote and listing but change only
 * when the operator imports a catalogue. A snapshot older than `maxAgeMs` is reloaded in the
 * background while the old one keeps serving, so no request waits for the reload.
 */
export class Catalogue {
  private snapshot?: CatalogueSnapshot;
  private loadedAt = 0;
  private loading?: Promise<CatalogueSnapshot>;

  constructor(
    private readonly read: () => Promise<CatalogueSnapshot>,
    private readonly maxAgeMs = 30_000,
  ) {}

  async current(): Promise<CatalogueSnapshot> {
    if (!this.snapshot) return this.sharedLoad();
    if (Date.now() - this.loadedAt > this.maxAgeMs) void this.sharedLoad().catch(() => undefined);
    return this.snapshot;
  }

  /**
   * Serves at least the catalogue an import announced (its version, from the NOTIFY its commit
   * delivered). A load already running may have read the rows before that commit: it is joined,
   * and if what it read is older, the next load started after it (so after the commit) reads the
   * announced version. Comparing versions, not timing, is what makes this hold.
   */
  async reloadTo(version: number): Promise<void> {
    for (let load = 1; (this.snapshot?.version ?? -1) < version; load += 1) {
      if (load > LOADS_TO_A_VERSION)
        throw new Error(
          `catalogue version ${version} was announced but ${this.snapshot?.version ?? 'none'} is the newest readable`,
        );
      await this.sharedLoad();
    }
  }

  /** Loads now, after any load already running (it may have read the rows before what the caller knows of). */
  async reload(): Promise<void> {
    await this.loading?.catch(() => undefined);
    await this.sharedLoad();
  }

  private sharedLoad(): Promise<CatalogueSnapshot> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<CatalogueSnapshot> {
    const read = await this.read();
    // Loads run one at a time, so this holds anyway; it keeps a snapshot from ever going back.
    if (!this.snapshot || read.version >= this.snapshot.version) this.snapshot = read;
    this.loadedAt = Date.now();
    return this.snapshot;
  }
}

/** The catalogue as one consistent database snapshot: its version and every route and package. */
export async function readCatalogue(em: EntityManager): Promise<CatalogueSnapshot> {
  return em.transactional(
    async (tx) => {
      const { version } = await tx.execute<{ version: string }>('select version from catalogue_version', [], 'get');
      const routes = (await tx.find(Route, {}, { orderBy: { name: 'asc' } })).map(toRouteView);
      const ctgs = (await tx.find(Ctg, {}, { orderBy: { displayOrder: 'asc' } })).map(toCtgView);
      return {
        version: Number(version),
        routes,
        ctgs,
        routeById: new Map(routes.map((route) => [route.id, route])),
        ctgById: new Map(ctgs.map((ctg) => [ctg.id, ctg])),
      };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

function toRouteView(route: Route): RouteView {
  const { id, name, region, trekName, routeType, routeCategory, maxAltitude, description, active } = route;
  return {
    id,
    name,
    region,
    area: route.area ?? null,
    trekName,
    routeType,
    routeCategory,
    maxAltitude,
    description,
    active,
  };
}

function toCtgView(ctg: Ctg): CtgView {
  return {
    id: ctg.id,
    code: ctg.code,
    name: ctg.name,
    insuranceProductId: ctg.insuranceProductId,
    insuranceCompany: ctg.insuranceCompany,
    productType: ctg.productType,
    routeId: ctg.route?.id ?? null,
    minAltitude: ctg.minAltitude,
    maxAltitude: ctg.maxAltitude,
    minAge: ctg.minAge,
    maxAge: ctg.maxAge,
    baseDurationDays: ctg.baseDurationDays,
    baseCtgPrice: ctg.baseCtgPrice,
    extraDayPrice: ctg.extraDayPrice,
    excessAmount: ctg.excessAmount,
    displayOrder: ctg.displayOrder,
    active: ctg.active,
    description: ctg.description,
    termsConditions: ctg.termsConditions,
    coverage: ctg.coverage,
    includedDevices: ctg.includedDevices,
  };
}
