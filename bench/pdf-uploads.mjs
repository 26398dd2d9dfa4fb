// /healthz latency while 8 heavy PDFs (64 KiB, an object stream inflating to 21 MiB: issue 30)
// upload in parallel, again and again: PDFs are judged in worker threads, so the event loop keeps
// answering. Samples /healthz one request at a time (one every 10 ms) during the uploads, then as
// long again without uploads, as the baseline; prints p50/p99 of both.
// Run: npm run build && node bench/pdf-uploads.mjs          (BENCH_SECONDS=20 by default)
import { startBenchServer, writeResult } from './support.mjs';
// Node strips the types of the test support file: the bench uploads the very PDF the tests do.
import { heavyPdf } from '../test/support/crafted-pdfs.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PARALLEL = 8;

async function upload(server, pdf) {
  const form = new FormData();
  form.append('documentType', 'PASSPORT');
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'passport.pdf');
  const response = await fetch(`${server.url}/api/external/v1/documents`, {
    method: 'POST',
    headers: { authorization: server.authorization },
    body: form,
  });
  await response.arrayBuffer();
  return response.status;
}

/** /healthz round trips in ms, one after another, until `until()` says stop. */
async function sampleHealth(server, until) {
  const samples = [];
  while (!until()) {
    const started = performance.now();
    const response = await fetch(`${server.url}/healthz`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return samples;
}

const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const line = (label, samples) =>
  `| ${label} | ${samples.length} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 99).toFixed(1)} | ${Math.max(...samples).toFixed(1)} |`;

async function main() {
  const pdf = heavyPdf();
  const server = await startBenchServer('pdf-uploads', { MAX_UPLOAD_BYTES: String(1024 * 1024) });
  try {
    // Warm: the first PDF starts the workers (each loads pdf.js once).
    console.error(`warm-up upload answered ${await upload(server, pdf)}`);
    await sampleHealth(
      server,
      (
        (end) => () =>
          performance.now() > end
      )(performance.now() + 1000),
    );

    let uploading = true;
    const statuses = new Map();
    let rounds = 0;
    const uploads = (async () => {
      while (uploading) {
        for (const status of await Promise.all(Array.from({ length: PARALLEL }, () => upload(server, pdf))))
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        rounds++;
      }
    })();
    const end = performance.now() + SECONDS * 1000;
    const loaded = await sampleHealth(server, () => performance.now() > end);
    uploading = false;
    await uploads;

    const quietEnd = performance.now() + SECONDS * 1000;
    const quiet = await sampleHealth(server, () => performance.now() > quietEnd);

    const answers = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
    const text = [
      `PDF uploads (${new Date().toISOString()}): ${PARALLEL} heavy PDFs (${pdf.length} bytes, an object stream inflating to 21 MiB) in parallel, ${rounds} rounds in ${SECONDS} s; answers ${answers}`,
      '',
      '| /healthz | samples | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|---|',
      line(`during ${PARALLEL} parallel heavy PDF uploads`, loaded),
      line('without uploads (baseline)', quiet),
    ].join('\n');
    console.log(text);
    writeResult('pdf-uploads', text);
  } finally {
    await server.stop();
  }
}

await main();
