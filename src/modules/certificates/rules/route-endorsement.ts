/**
 * A route the partner typed in is covered by endorsement: the insurer stands by the stated route up
 * to the package's altitude, and the key terms (which say "registered routes") are amended in the
 * same words, so that no claim can be declined on the certificate's own wording (decision record 0099).
 */
export function statedRouteCover(routeName: string, coveredAltitude: string): string {
  return `“${routeName}”: cover applies on this route as stated, up to ${coveredAltitude}`;
}

/** The package's key terms, with the endorsement that extends their "registered routes" to the stated route. */
export function keyTermsWithEndorsement(
  keyTerms: string,
  statedRoute: string | undefined,
  coveredAltitude: string,
): string {
  if (statedRoute === undefined) return keyTerms;
  return `${keyTerms} Endorsement: for this policy, the route stated by the partner (“${statedRoute}”) counts as a registered route, up to ${coveredAltitude}.`;
}
