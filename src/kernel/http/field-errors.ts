import type { ErrorObject } from 'ajv';
import type { FieldErrors } from '../errors';
import { isRecord, stringField } from '../narrow';

/**
 * Turns Ajv errors from openapi-backend's request validation into display field names:
 * `/requestBody/2/email` -> `[2].email`, `/query/size` -> `size`, a missing property -> its name.
 */
export function fieldErrorsFromAjv(errors: ErrorObject[]): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const error of withoutUnmatchedBranches(withoutRuleInternals(errors))) {
    const segments = error.instancePath.split('/').slice(1);
    const location = segments.shift();
    const rule = fieldRule(error);
    if (rule) segments.push(rule.field);
    const field = fieldName(location, segments, error);
    if (!(field in fieldErrors)) fieldErrors[field] = rule?.message ?? messageFor(error);
  }
  return fieldErrors;
}

/** A rule between fields, as the spec states it: `x-field-error` beside the `not`/`anyOf`/`oneOf` that encodes it. */
interface FieldRule {
  field: string;
  message: string;
}

/**
 * A rule such as "`endDate` or `duration`, not both" fails as a bare `not` or `anyOf`, which names
 * no field. The subschema stating it carries `x-field-error: {field, message}`: the field error
 * the server has always given for that rule, so the schema and the server speak alike.
 */
function fieldRule(error: ErrorObject): FieldRule | undefined {
  if (!RULE_KEYWORDS.has(error.keyword)) return undefined;
  const parent: unknown = error.parentSchema;
  const rule = isRecord(parent) ? parent['x-field-error'] : undefined;
  const field = stringField(rule, 'field');
  const message = stringField(rule, 'message');
  return field !== undefined && message !== undefined ? { field, message } : undefined;
}

const RULE_KEYWORDS = new Set(['not', 'anyOf', 'oneOf']);

/** The branches of a failed rule (each `required` of an `anyOf`) repeat in pieces what its message says whole. */
function withoutRuleInternals(errors: ErrorObject[]): ErrorObject[] {
  const rules = errors.filter((error) => fieldRule(error)).map((error) => `${error.schemaPath}/`);
  return errors.filter((error) => !rules.some((rule) => error.schemaPath.startsWith(rule)));
}

const BRANCH_TYPE_ERROR = /^(.*\/(?:oneOf|anyOf)\/\d+)\/type$/;

/**
 * A union such as POST /orders' "one order object or an array of them" fails every branch. The
 * branch whose type does not even match the value says nothing useful ("must be of type array"
 * for an object body), nor does the union's own summary: drop both when another branch explains
 * what is wrong. When every branch has the wrong type, the type errors are all that is left.
 */
function withoutUnmatchedBranches(errors: ErrorObject[]): ErrorObject[] {
  const unmatched = errors.flatMap((error) => {
    const match = error.keyword === 'type' ? BRANCH_TYPE_ERROR.exec(error.schemaPath) : null;
    return match ? [`${match[1]}/`] : [];
  });
  if (unmatched.length === 0) return errors;
  const kept = errors.filter(
    (error) =>
      !unmatched.some((branch) => `${error.schemaPath}/`.startsWith(branch)) &&
      (fieldRule(error) !== undefined || (error.keyword !== 'oneOf' && error.keyword !== 'anyOf')),
  );
  return kept.length > 0 ? kept : errors;
}

function fieldName(location: string | undefined, segments: string[], error: ErrorObject): string {
  const missing = stringField(error.params, 'missingProperty');
  const additional = stringField(error.params, 'additionalProperty');
  if (error.keyword === 'required' && missing) segments.push(missing);
  if (error.keyword === 'additionalProperties' && additional) segments.push(additional);
  if (location === 'header') return segments.map(headerName).join('.');
  const name = segments
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  return name === '' ? (location === 'requestBody' ? 'body' : (location ?? 'request')) : name;
}

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function messageFor(error: ErrorObject): string {
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an accepted field';
    case 'enum':
      return `must be one of: ${Array.isArray(params.allowedValues) ? params.allowedValues.join(', ') : ''}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'type':
      return `must be of type ${String(params.type)}`;
    case 'pattern':
      // A pattern such as "no control characters" says what it means in words; a regex is no message.
      return patternMessage(error) ?? `must match the pattern ${String(params.pattern)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

function patternMessage(error: ErrorObject): string | undefined {
  return stringField(error.parentSchema, 'x-pattern-message');
}
