import type { CatalogueFile } from '../../src/modules/catalogue/catalogue-schema';
import { randomUUID } from 'node:crypto';
/** Ids from src/modules/catalogue/catalogue.yaml, the seed every test database carries. */
export const ROUTES = {
  everestBaseCamp: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
  annapurnaCircuit: '5e8a13c4-6f27-4b09-a1d8-3c7e90b2f564',
  poonHill: '2b7f6d18-9e03-4c51-8a4e-f1c5b9d0367a',
  narPhuInactive: '6b3d0e9a-f45c-4718-a2e6-c09b1d7f5a38',
  everestSouthCol: 'f2e84b6c-9a07-4c13-b5d1-7e0a3f96c8b2',
} as const;

export const CTGS = {
  standard3000: '1c4e7a92-b3f0-4d65-8e19-a27c5b0d3f86',
  standard5500: '4f0b8c63-d7a9-4e21-a5f6-0b93e2d184c7',
  everestBaseCampSpecial: '7a2d9e15-c08b-4f46-9c31-e6b4a7f0d52e',
  senior4500: 'b8d2f6e1-0a4c-4795-9e0b-3a7f1c5d86e2',
  monsoonInactive: 'c0e4a8b3-5d17-4f9c-8a62-e7b3d0f1945c',
} as const;

/**
 * A catalogue of one retired route and one retired package for it (nothing partners would see),
 * as the catalogue file format has it; new ids unless given, so a test can import it again changed.
 */
export function retiredTsumCatalogue(
  ctgName = 'Tsum Valley Special',
  ids: { routeId: string; ctgId: string } = { routeId: randomUUID(), ctgId: randomUUID() },
): CatalogueFile & { ids: { routeId: string; ctgId: string } } {
  return {
    ids,
    currency: 'NPR',
    insuranceCompanies: ['Himal Shield Insurance Ltd.'],
    routes: [
      {
        id: ids.routeId,
        name: 'Tsum Valley Trek',
        region: 'Gorkha',
        trekName: 'Tsum Valley',
        routeType: 'TEAHOUSE',
        routeCategory: 'RESTRICTED_AREA',
        maxAltitude: 3700,
        active: false,
      },
    ],
    ctgs: [
      {
        id: ids.ctgId,
        code: `TSUM-${ids.ctgId.slice(0, 8)}`,
        name: ctgName,
        insuranceProductId: 'HSI-TSUM',
        insuranceCompany: 'Himal Shield Insurance Ltd.',
        productType: 'SPECIAL_ROUTE',
        routeId: ids.routeId,
        minAltitude: 3001,
        maxAltitude: 4000,
        minAge: 1,
        maxAge: 70,
        baseDurationDays: 12,
        baseCtgPrice: 9100.5,
        extraDayPrice: 600,
        displayOrder: 900,
        active: false,
        coverage: [{ code: 'EMERGENCY_EVACUATION', name: 'Helicopter emergency evacuation', coverageAmount: 1500000 }],
        includedDevices: [
          {
            id: randomUUID(),
            name: 'Satellite messenger',
            description: 'Two-way satellite messenger',
            quantity: 1,
            dailyPrice: 150,
          },
        ],
      },
    ],
  };
}
