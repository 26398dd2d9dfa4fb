/** The value of one sample line, e.g. `http_requests_total{operation="listRoutes",...}`. */
export function sample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

/** GET /metrics on a METRICS_PORT listener. */
export async function scrapeMetricsPort(port: number, token?: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, body: await response.text() };
}
