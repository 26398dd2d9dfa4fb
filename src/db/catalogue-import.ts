import fs from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from 'yaml';
import { Ctg } from '../entities/ctg';
import { Route } from '../entities/route';
import { minorFromAmount } from '../domain/money';

/** The documented YAML format of a catalogue file; see the header of catalogue.yaml. */
interface CatalogueFile {
  currency: string;
  routes: Array<Omit<Route, 'description' | 'active'> & { description?: string; active?: boolean }>;
  ctgs: Array<{
    id: string;
    code: string;
    name: string;
    insuranceProductId: string;
    insuranceCompany: string;
    productType: string;
    routeId: string | null;
    minAltitude: number;
    maxAltitude: number;
    minAge: number;
    maxAge: number;
    baseDurationDays: number;
    baseCtgPrice: number;
    extraDayPrice: number;
    displayOrder: number;
    active?: boolean;
    description?: string;
    termsConditions?: string;
    coverage: Array<{ code: string; name: string; coverageAmount: number }>;
    includedDevices: Array<{ id: string; name: string; description: string; quantity: number; dailyPrice: number }>;
  }>;
}

export interface ImportSummary {
  routes: number;
  ctgs: number;
}

export const CATALOGUE_CHANNEL = 'catalogue_changed';

export function readCatalogueFile(file: string): CatalogueFile {
  const parsed = parse(fs.readFileSync(file, 'utf8')) as CatalogueFile;
  const problems: string[] = [];
  if (!Array.isArray(parsed?.routes)) problems.push('routes must be a list');
  if (!Array.isArray(parsed?.ctgs)) problems.push('ctgs must be a list');
  const routeIds = new Set((parsed?.routes ?? []).map((route) => route.id));
  for (const ctg of parsed?.ctgs ?? []) {
    if (ctg.routeId && !routeIds.has(ctg.routeId)) problems.push(`ctg ${ctg.code} names unknown route ${ctg.routeId}`);
    if (ctg.minAltitude > ctg.maxAltitude) problems.push(`ctg ${ctg.code}: minAltitude is above maxAltitude`);
    if (ctg.minAge > ctg.maxAge) problems.push(`ctg ${ctg.code}: minAge is above maxAge`);
  }
  if (problems.length > 0) throw new Error(`${file} is not a valid catalogue:\n  - ${problems.join('\n  - ')}`);
  return parsed;
}

/**
 * Inserts or updates every route and package of the file by id (nothing is deleted: retire an
 * entry with `active: false`), then tells running servers to reload their in-memory catalogue.
 */
export async function importCatalogue(em: EntityManager, catalogue: CatalogueFile): Promise<ImportSummary> {
  await em.transactional(async (tx) => {
    for (const route of catalogue.routes) {
      await tx.upsert(Route, { description: '', active: true, ...route });
    }
    for (const { includedDevices, coverage, routeId, baseCtgPrice, extraDayPrice, ...ctg } of catalogue.ctgs) {
      await tx.upsert(Ctg, {
        active: true,
        description: '',
        termsConditions: '',
        ...ctg,
        route: routeId ?? null,
        baseCtgPrice: minorFromAmount(baseCtgPrice),
        extraDayPrice: minorFromAmount(extraDayPrice),
        coverage: coverage.map((line) => ({ ...line, coverageAmount: minorFromAmount(line.coverageAmount) })),
        includedDevices: includedDevices.map(({ id, dailyPrice, ...device }) => ({
          deviceId: id,
          ...device,
          dailyPrice: minorFromAmount(dailyPrice),
        })),
      });
    }
    await tx.getConnection().execute(`notify ${CATALOGUE_CHANNEL}`);
  });
  return { routes: catalogue.routes.length, ctgs: catalogue.ctgs.length };
}
