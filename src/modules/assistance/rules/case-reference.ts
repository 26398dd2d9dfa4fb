/**
 * `AST-<year>-<seq>`: the year of opening (Nepal) and a database sequence number that never
 * resets, zero-padded to six digits like the order references.
 */
export function formatCaseRef(year: string, sequence: string): string {
  if (!/^\d{4}$/.test(year)) throw new Error(`Not a four-digit year: ${year}`);
  if (!/^[1-9]\d*$/.test(sequence)) throw new Error(`Not a positive sequence number: ${sequence}`);
  return `AST-${year}-${sequence.padStart(6, '0')}`;
}
