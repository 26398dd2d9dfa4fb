import type { components } from '../../../generated/api';
import { AMOUNT_LIMITS } from '../../kernel/amount-limits';

type Schemas = components['schemas'];

/**
 * The catalogue file format (docs/catalogue-format.md), as JSON Schema so that a bad file is
 * refused with the path of every bad field before anything is written. Enumerations are those
 * of the partner contract, so the catalogue can hold nothing the API cannot describe.
 */
export interface CatalogueFile {
  currency: string;
  insuranceCompanies?: string[];
  routes: CatalogueRoute[];
  ctgs: CatalogueCtg[];
}

export interface CatalogueRoute {
  id: string;
  name: string;
  region: string;
  trekName: string;
  routeType: Schemas['RouteType'];
  routeCategory: Schemas['RouteCategory'];
  maxAltitude: number;
  /** The airstrip its trekkers fly through (LUKLA), which a disruption is declared for (decision record 0102). */
  area?: string;
  description?: string;
  active?: boolean;
}

export interface CatalogueCtg {
  id: string;
  code: string;
  name: string;
  insuranceProductId: string;
  insuranceCompany: string;
  productType: Schemas['ProductType'];
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
  /** What the insured pays of each claim before the cover pays (NPR, two decimals); 0 or absent: none. */
  excess?: number;
  coverage: Array<{ code: string; name: string; coverageAmount: number }>;
  includedDevices: Array<{ id: string; name: string; description: string; quantity: number; dailyPrice: number }>;
}

const text = { type: 'string', minLength: 1 } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const amount = { type: 'number', minimum: 0, multipleOf: 0.01 } as const;
const amountUpTo = (maximum: number) => ({ ...amount, maximum }) as const;
const altitude = { type: 'integer', minimum: 0, maximum: 9000 } as const;
/** An area code: capitals, as a disruption names it (`LUKLA`). */
export const AREA_PATTERN = '^[A-Z][A-Z0-9_]{1,31}$';
const age = { type: 'integer', minimum: 1, maximum: 120 } as const;

export const catalogueFileSchema = {
  type: 'object',
  required: ['currency', 'routes', 'ctgs'],
  additionalProperties: false,
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    insuranceCompanies: { type: 'array', items: text },
    routes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'region', 'trekName', 'routeType', 'routeCategory', 'maxAltitude'],
        additionalProperties: false,
        properties: {
          id: uuid,
          name: text,
          region: text,
          trekName: text,
          routeType: { enum: ['TEAHOUSE', 'CAMPING', 'EXPEDITION', 'PEAK_CLIMBING'] },
          routeCategory: { enum: ['CLASSIC', 'RESTRICTED_AREA', 'PEAK', 'EXPEDITION'] },
          maxAltitude: altitude,
          area: { type: 'string', pattern: AREA_PATTERN },
          description: { type: 'string' },
          active: { type: 'boolean' },
        },
      },
    },
    ctgs: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'code',
          'name',
          'insuranceProductId',
          'insuranceCompany',
          'productType',
          'routeId',
          'minAltitude',
          'maxAltitude',
          'minAge',
          'maxAge',
          'baseDurationDays',
          'baseCtgPrice',
          'extraDayPrice',
          'displayOrder',
          'coverage',
          'includedDevices',
        ],
        additionalProperties: false,
        properties: {
          id: uuid,
          code: text,
          name: text,
          insuranceProductId: text,
          insuranceCompany: text,
          productType: { enum: ['STANDARD', 'SPECIAL_ROUTE', 'EXPEDITION'] },
          routeId: { type: ['string', 'null'], format: 'uuid' },
          minAltitude: altitude,
          maxAltitude: altitude,
          minAge: age,
          maxAge: age,
          baseDurationDays: { type: 'integer', minimum: 1, maximum: AMOUNT_LIMITS.coverDays },
          baseCtgPrice: amountUpTo(AMOUNT_LIMITS.catalogueBasePrice),
          extraDayPrice: amountUpTo(AMOUNT_LIMITS.catalogueExtraDayPrice),
          displayOrder: { type: 'integer' },
          active: { type: 'boolean' },
          description: { type: 'string' },
          termsConditions: { type: 'string' },
          excess: amountUpTo(AMOUNT_LIMITS.catalogueBasePrice),
          coverage: {
            type: 'array',
            // The spec promises partners at most 30 cover lines (Ctg.liabilities, Quote.coverage).
            maxItems: 30,
            items: {
              type: 'object',
              required: ['code', 'name', 'coverageAmount'],
              additionalProperties: false,
              properties: { code: text, name: text, coverageAmount: amount },
            },
          },
          includedDevices: {
            type: 'array',
            maxItems: AMOUNT_LIMITS.catalogueDevicesPerPackage,
            items: {
              type: 'object',
              required: ['id', 'name', 'description', 'quantity', 'dailyPrice'],
              additionalProperties: false,
              properties: {
                id: uuid,
                name: text,
                description: { type: 'string' },
                quantity: { type: 'integer', minimum: 1, maximum: AMOUNT_LIMITS.catalogueDeviceQuantity },
                dailyPrice: amountUpTo(AMOUNT_LIMITS.catalogueDeviceDailyPrice),
              },
            },
          },
        },
      },
    },
  },
} as const;
