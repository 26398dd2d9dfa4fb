/**
 * What the delivery log says of a try that got no answer: its category only. Node's own messages
 * name the address and port connected to ("connect ECONNREFUSED 10.0.0.5:8080"); a partner who
 * could register any address would read the service's network map back from its log.
 */
const CATEGORIES: ReadonlyArray<[codes: readonly string[], text: string]> = [
  [['ECONNREFUSED'], 'connection refused'],
  [['ECONNRESET', 'EPIPE', 'ECONNABORTED'], 'connection reset'],
  [['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA'], 'host name does not resolve'],
  [['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN'], 'host unreachable'],
  [['ETIMEDOUT'], 'connection timed out'],
];

/** The category of a connection failure from its error code; TLS failures by their code's prefix. */
export function connectionFailureCategory(code: string | undefined): string {
  if (code === undefined) return 'connection failed';
  const known = CATEGORIES.find(([codes]) => codes.includes(code));
  if (known) return known[1];
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return 'TLS handshake failed';
  return 'connection failed';
}
