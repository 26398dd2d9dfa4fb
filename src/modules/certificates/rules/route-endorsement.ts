/**
 * A route the partner typed in is covered by endorsement: the insurer stands by the stated route up
 * to the package's altitude, and the key terms (which say "registered routes") are amended in the
 * same words, so that no claim can be declined on the certificate's own wording (decision record 0097).
 */
export function statedRouteCover(routeName: string, coveredAltitude: string): string {
  return `“${routeName}”: cover applies on this route as stated, up to ${coveredAltitude}`;
}

/** The endorsement that extends the key terms' "registered routes" to the stated route. */
export function statedRouteEndorsement(statedRoute: string, coveredAltitude: string): string {
  return `Endorsement: for this policy, the route stated by the partner (“${statedRoute}”) counts as a registered route, up to ${coveredAltitude}.`;
}
