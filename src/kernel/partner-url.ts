/** URLs a partner gives us (a payment's return URL, a webhook endpoint): what all of them share. */

/** `raw` as an absolute URL, or undefined when it is not one. */
export function parseAbsoluteUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** Credentials in a URL end up in logs and are sent on; a fragment never reaches a server. */
export function forbiddenUrlPartProblem(url: URL): string | undefined {
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  return undefined;
}
