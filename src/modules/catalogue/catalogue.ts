import type { EntityManager } from '@mikro-orm/postgresql';
import { Ctg, type CoverageLine, type IncludedDevice } from './entities/ctg';
import { Route } from './entities/route';
import type { Minor } from '../../kernel/money';
import type { CatalogueCtg } from './catalogue-schema';

export interface RouteView {
  id: string;
  name: string;
  region: string;
  trekName: string;
  routeType: Route['routeType'];
  routeCategory: Route['routeCategory'];
  maxAltitude: number;
  description: string;
  active: boolean;
}

/** A package as quotes read it: the catalogue file's fields, with money in minor units and every optional field filled. */
export type CtgView = Omit<CatalogueCtg, 'baseCtgPrice' | 'extraDayPrice' | 'excess' | 'active' | 'description' | 'termsConditions' | 'coverage' | 'includedDevices'> & {
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
  routes: RouteView[];
  ctgs: CtgView[];
  routeById: Map<string, RouteView>;
  ctgById: Map<string, CtgView>;
}

/**
 * Routes and packages held in memory: they are read on every quote and listing but change only
 * when the operator imports a catalogue. A snapshot older than `maxAgeMs` is reloaded in the
 * background while the old one keeps serving, so no request waits for the reload.
 */
export class Catalogue {
  private snapshot?: CatalogueSnapshot;
  private loadedAt = 0;
  private reloading?: Promise<CatalogueSnapshot>;
  /** The load a reload asked for during another one starts after it; later reloads share it. */
  private nextLoad?: Promise<CatalogueSnapshot>;

  constructor(
    private readonly forkEm: () => EntityManager,
    private readonly maxAgeMs = 30_000,
  ) {}

  async current(): Promise<CatalogueSnapshot> {
    if (!this.snapshot) return this.sharedLoad();
    if (Date.now() - this.loadedAt > this.maxAgeMs) void this.sharedLoad().catch(() => undefined);
    return this.snapshot;
  }

  /**
   * Loads now; also what a change notification calls. A load already running may have read the
   * rows before the change, so a reload during it waits for a load that starts after it; reloads
   * asked meanwhile share that one.
   */
  async reload(): Promise<void> {
    if (!this.reloading) {
      await this.sharedLoad();
      return;
    }
    this.nextLoad ??= this.reloading
      .catch(() => undefined)
      .then(() => {
        this.nextLoad = undefined;
        return this.sharedLoad();
      });
    await this.nextLoad;
  }

  private sharedLoad(): Promise<CatalogueSnapshot> {
    this.reloading ??= this.load().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async load(): Promise<CatalogueSnapshot> {
    const em = this.forkEm();
    const [routes, ctgs] = await Promise.all([
      em.find(Route, {}, { orderBy: { name: 'asc' } }),
      em.find(Ctg, {}, { orderBy: { displayOrder: 'asc' } }),
    ]);
    const routeViews = routes.map(toRouteView);
    const ctgViews = ctgs.map(toCtgView);
    this.snapshot = {
      routes: routeViews,
      ctgs: ctgViews,
      routeById: new Map(routeViews.map((route) => [route.id, route])),
      ctgById: new Map(ctgViews.map((ctg) => [ctg.id, ctg])),
    };
    this.loadedAt = Date.now();
    return this.snapshot;
  }
}

function toRouteView(route: Route): RouteView {
  const { id, name, region, trekName, routeType, routeCategory, maxAltitude, description, active } = route;
  return { id, name, region, trekName, routeType, routeCategory, maxAltitude, description, active };
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
