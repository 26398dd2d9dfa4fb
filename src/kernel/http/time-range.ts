/**
 * What a list's schema cannot say about its `createdFrom` / `createdTo` filters: that each is a
 * real instant and that the range is the right way round. Field errors, keyed by parameter.
 */
export function createdRangeErrors(range: { createdFrom?: string; createdTo?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const from = range.createdFrom === undefined ? undefined : Date.parse(range.createdFrom);
  const to = range.createdTo === undefined ? undefined : Date.parse(range.createdTo);
  if (from !== undefined && Number.isNaN(from)) errors.createdFrom = 'must be an RFC 3339 date-time with its offset';
  if (to !== undefined && Number.isNaN(to)) errors.createdTo = 'must be an RFC 3339 date-time with its offset';
  if (from !== undefined && to !== undefined && !Number.isNaN(from) && !Number.isNaN(to) && from >= to)
    errors.createdFrom = 'must be before createdTo';
  return errors;
}
