import type { ErrorObject } from 'ajv';
import { fieldErrorsFromAjv } from '../../src/kernel/http/field-errors';

const error = (overrides: Partial<ErrorObject>): ErrorObject => ({
  keyword: 'type',
  instancePath: '',
  schemaPath: '',
  params: {},
  ...overrides,
});

describe('field names of validation errors', () => {
  it('indexes array items like [2].email', () => {
    expect(
      fieldErrorsFromAjv([
        error({ keyword: 'format', instancePath: '/requestBody/2/email', params: { format: 'email' } }),
      ]),
    ).toEqual({ '[2].email': 'must be a valid email' });
  });

  it('names a missing property', () => {
    expect(
      fieldErrorsFromAjv([
        error({ keyword: 'required', instancePath: '/requestBody', params: { missingProperty: 'ctgId' } }),
      ]),
    ).toEqual({ ctgId: 'is required' });
  });

  it('names a rejected extra property', () => {
    expect(
      fieldErrorsFromAjv([
        error({
          keyword: 'additionalProperties',
          instancePath: '/requestBody/0',
          params: { additionalProperty: 'travelCompanyId' },
        }),
      ]),
    ).toEqual({ '[0].travelCompanyId': 'is not an accepted field' });
  });

  it('names query parameters and headers plainly', () => {
    expect(
      fieldErrorsFromAjv([
        error({ keyword: 'enum', instancePath: '/query/sortBy', params: { allowedValues: ['name'] } }),
      ]),
    ).toEqual({ sortBy: 'must be one of: name' });
    expect(
      fieldErrorsFromAjv([
        error({ keyword: 'format', instancePath: '/header/idempotency-key', params: { format: 'uuid' } }),
      ]),
    ).toEqual({ 'Idempotency-Key': 'must be a valid uuid' });
  });

  it('reports only the branch of a union whose type matches the body', () => {
    const errors = [
      error({
        keyword: 'additionalProperties',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf/0/additionalProperties',
        params: { additionalProperty: 'travelCompanyId' },
      }),
      error({
        keyword: 'type',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf/1/type',
        params: { type: 'array' },
      }),
      error({
        keyword: 'oneOf',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf',
        params: { passingSchemas: null },
        message: 'must match exactly one schema in oneOf',
      }),
    ];
    expect(fieldErrorsFromAjv(errors)).toEqual({ travelCompanyId: 'is not an accepted field' });
  });

  it('keeps the type errors when no branch of a union matches the body', () => {
    const errors = [
      error({
        keyword: 'type',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf/0/type',
        params: { type: 'object' },
      }),
      error({
        keyword: 'type',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf/1/type',
        params: { type: 'array' },
      }),
    ];
    expect(fieldErrorsFromAjv(errors)).toEqual({ body: 'must be of type object' });
  });

  it('names a rule between fields by its x-field-error, without the pieces of its branches', () => {
    const rule = {
      anyOf: [{ required: ['routeId'] }, { required: ['customRouteName'] }],
      'x-field-error': { field: 'routeId', message: 'routeId or customRouteName is required' },
    };
    const errors = [
      error({
        keyword: 'required',
        instancePath: '/requestBody/1',
        schemaPath: '#/properties/requestBody/oneOf/1/items/allOf/1/anyOf/0/required',
        params: { missingProperty: 'routeId' },
      }),
      error({
        keyword: 'required',
        instancePath: '/requestBody/1',
        schemaPath: '#/properties/requestBody/oneOf/1/items/allOf/1/anyOf/1/required',
        params: { missingProperty: 'customRouteName' },
      }),
      error({
        keyword: 'anyOf',
        instancePath: '/requestBody/1',
        schemaPath: '#/properties/requestBody/oneOf/1/items/allOf/1/anyOf',
        parentSchema: rule,
      }),
      error({
        keyword: 'type',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/oneOf/0/type',
        params: { type: 'object' },
      }),
    ];
    expect(fieldErrorsFromAjv(errors)).toEqual({ '[1].routeId': 'routeId or customRouteName is required' });
  });

  it('names a failed "not both" rule at the field its x-field-error names', () => {
    const rule = {
      not: { required: ['endDate', 'duration'] },
      'x-field-error': { field: 'duration', message: 'send either endDate or duration, not both' },
    };
    const errors = [
      error({
        keyword: 'not',
        instancePath: '/requestBody',
        schemaPath: '#/properties/requestBody/allOf/0/not',
        parentSchema: rule,
      }),
    ];
    expect(fieldErrorsFromAjv(errors)).toEqual({ duration: 'send either endDate or duration, not both' });
  });
});
