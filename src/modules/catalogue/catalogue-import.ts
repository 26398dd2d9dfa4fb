import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { catalogueFileSchema, type CatalogueFile } from './catalogue-schema';
import { Ctg } from './entities/ctg';
import { Route } from './entities/route';
import { minorFromAmount } from '../../kernel/money';
import { messageOf } from '../../kernel/narrow';

/** The catalogue the service ships (real Nepal treks): the seed of every new database. */
export const SEED_CATALOGUE_FILE = path.join(__dirname, 'catalogue.yaml');

export interface ImportSummary {
  routes: number;
  ctgs: number;
}

export const CATALOGUE_CHANNEL = 'catalogue_changed';

/**
 * Reads and checks a catalogue file (format: docs/catalogue-format.md). Every problem is listed
 * with its place in the file, and nothing is imported from a file that has one.
 */
export function readCatalogueFile(file: string): CatalogueFile {
  let parsed: unknown;
  try {
    parsed = parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} cannot be read as YAML: ${messageOf(error)}`, { cause: error });
  }
  const problems = catalogueProblems(parsed);
  if (problems.length > 0 || !isCatalogueFile(parsed))
    throw new Error(`${file} is not a valid catalogue:\n  - ${problems.join('\n  - ')}`);
  return parsed;
}

let validateShape: ValidateFunction<CatalogueFile> | undefined;

function shapeValidator(): ValidateFunction<CatalogueFile> {
  if (!validateShape) {
    // multipleOfPrecision: 1234.56 / 0.01 is not an integer in floating point. validateSchema off:
    // the schema is ours, in code; checking it against the meta-schema took 5/6 of every start's
    // compile (the shipped catalogue is read on every start).
    const ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 6, validateSchema: false });
    addFormats(ajv);
    validateShape = ajv.compile<CatalogueFile>(catalogueFileSchema);
  }
  return validateShape;
}

const isCatalogueFile = (parsed: unknown): parsed is CatalogueFile => shapeValidator()(parsed);

export function catalogueProblems(parsed: unknown): string[] {
  if (!isCatalogueFile(parsed))
    return (shapeValidator().errors ?? []).map((error) => `${placeOf(error.instancePath)}${describe(error)}`);
  const catalogue = parsed;
  const problems: string[] = [];
  const routeIds = new Set(catalogue.routes.map((route) => route.id));
  const seen = new Map<string, string>();
  const unique = (kind: string, value: string, where: string) => {
    const earlier = seen.get(`${kind}:${value}`);
    if (earlier) problems.push(`${where}: ${kind} ${value} is already used by ${earlier}`);
    else seen.set(`${kind}:${value}`, where);
  };
  catalogue.routes.forEach((route, i) => unique('id', route.id, `routes[${i}]`));
  catalogue.ctgs.forEach((ctg, i) => {
    const where = `ctgs[${i}] (${ctg.code})`;
    unique('id', ctg.id, where);
    unique('code', ctg.code, where);
    ctg.includedDevices.forEach((device, j) => unique('device id', device.id, `${where}.includedDevices[${j}]`));
    if (ctg.routeId && !routeIds.has(ctg.routeId))
      problems.push(`${where}: routeId ${ctg.routeId} is not a route of this file`);
    if ((ctg.productType === 'SPECIAL_ROUTE') !== (ctg.routeId !== null))
      problems.push(`${where}: routeId is set exactly when productType is SPECIAL_ROUTE`);
    if (ctg.minAltitude > ctg.maxAltitude) problems.push(`${where}: minAltitude is above maxAltitude`);
    if (ctg.minAge > ctg.maxAge) problems.push(`${where}: minAge is above maxAge`);
    if (catalogue.insuranceCompanies && !catalogue.insuranceCompanies.includes(ctg.insuranceCompany)) {
      problems.push(`${where}: insuranceCompany "${ctg.insuranceCompany}" is not listed in insuranceCompanies`);
    }
  });
  return problems;
}

/** `/ctgs/3/coverage/0/name` -> `ctgs[3].coverage[0].name: ` */
function placeOf(pointer: string): string {
  let place = '';
  for (const segment of pointer.split('/').slice(1)) {
    place += /^\d+$/.test(segment) ? `[${segment}]` : `${place ? '.' : ''}${segment}`;
  }
  return place ? `${place}: ` : '';
}

function describe(error: ErrorObject): string {
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return `${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${String(params.additionalProperty)} is not a field of this format`;
    case 'enum':
      return `must be one of ${Array.isArray(params.allowedValues) ? params.allowedValues.join(', ') : ''}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * Inserts or updates every route and package of the file by id (nothing is deleted: retire an
 * entry with `active: false`), bumps the catalogue's version, and tells running servers, at
 * commit, which version to reload to.
 */
export async function importCatalogue(em: EntityManager, catalogue: CatalogueFile): Promise<ImportSummary> {
  await em.transactional(async (tx) => {
    for (const route of catalogue.routes) {
      // A route the file gives no area loses the one it had (decision record 0102).
      await tx.upsert(Route, { description: '', active: true, area: null, ...route });
    }
    for (const { includedDevices, coverage, routeId, baseCtgPrice, extraDayPrice, excess, ...ctg } of catalogue.ctgs) {
      await tx.upsert(Ctg, {
        active: true,
        description: '',
        termsConditions: '',
        ...ctg,
        route: routeId ?? null,
        baseCtgPrice: minorFromAmount(baseCtgPrice),
        extraDayPrice: minorFromAmount(extraDayPrice),
        excessAmount: minorFromAmount(excess ?? 0),
        coverage: coverage.map((line) => ({ ...line, coverageAmount: minorFromAmount(line.coverageAmount) })),
        includedDevices: includedDevices.map(({ id, dailyPrice, ...device }) => ({
          deviceId: id,
          ...device,
          dailyPrice: minorFromAmount(dailyPrice),
        })),
      });
    }
    // In the transaction (tx.execute, not the pool): the NOTIFY is delivered when the import
    // commits, and carries the version a server must reach.
    const { version } = await tx.execute<{ version: string }>(
      'update catalogue_version set version = version + 1 returning version',
      [],
      'get',
    );
    await tx.execute('select pg_notify(?, ?)', [CATALOGUE_CHANNEL, version]);
  });
  return { routes: catalogue.routes.length, ctgs: catalogue.ctgs.length };
}
