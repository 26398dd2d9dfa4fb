import type { ErrorObject } from 'ajv';
import type { FieldErrors } from './app-error';

/**
 * Turns Ajv errors from openapi-backend's request validation into display field names:
 * `/requestBody/2/email` -> `[2].email`, `/query/size` -> `size`, a missing property -> its name.
 */
export function fieldErrorsFromAjv(errors: ErrorObject[]): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const error of errors) {
    const segments = error.instancePath.split('/').slice(1);
    const location = segments.shift();
    const field = fieldName(location, segments, error);
    if (!(field in fieldErrors)) fieldErrors[field] = messageFor(error);
  }
  return fieldErrors;
}

function fieldName(location: string | undefined, segments: string[], error: ErrorObject): string {
  const extra = (error.params as { missingProperty?: string; additionalProperty?: string });
  if (error.keyword === 'required' && extra.missingProperty) segments.push(extra.missingProperty);
  if (error.keyword === 'additionalProperties' && extra.additionalProperty) segments.push(extra.additionalProperty);
  if (location === 'header') return segments.map(headerName).join('.');
  const name = segments
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  return name === '' ? (location === 'requestBody' ? 'body' : location ?? 'request') : name;
}

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function messageFor(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an accepted field';
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'format':
      return `must be a valid ${params.format}`;
    case 'type':
      return `must be of type ${params.type}`;
    case 'pattern':
      return `must match the pattern ${String(params.pattern)}`;
    default:
      return error.message ?? 'is invalid';
  }
}
