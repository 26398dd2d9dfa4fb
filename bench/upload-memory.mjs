// Resident memory of the server while it receives 10 MiB uploads: the body must be streamed to
// storage, not buffered. Samples the server's VmRSS from /proc every 2 ms during each upload.
// Run: npm run build && node bench/upload-memory.mjs
import fs from 'node:fs';
import { startBenchServer, writeResult } from './support.mjs';

const FILE_BYTES = 10 * 1024 * 1024;
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 8);
// A file five times larger shows whether memory follows the file size (buffering) or not (streaming).
const LARGE_FILE_BYTES = 50 * 1024 * 1024;

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

function pngOfSize(size) {
  const file = Buffer.alloc(size);
  for (let i = 0; i < file.length; i++) file[i] = (i * 2654435761) >>> 24; // not compressible, not all zeros
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(file);
  return file;
}

async function upload(server, bytes, documentType = 'PASSPORT') {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'passport.png');
  const response = await fetch(`${server.url}/api/external/v1/documents`, { method: 'POST', headers: { authorization: server.authorization }, body: form });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

async function main() {
  const server = await startBenchServer('upload', { MAX_UPLOAD_BYTES: String(LARGE_FILE_BYTES) });
  try {
    const file = pngOfSize(FILE_BYTES);
    // Warm every code path with small uploads first, so that growth means buffering, not lazy loading.
    for (let i = 0; i < 5; i++) await upload(server, file.subarray(0, 64 * 1024));
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(server.pid);
    const measure = async (label, bytes) => {
      let peak = rssOf(server.pid);
      const before = peak;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(server.pid));
      }, 2);
      const started = performance.now();
      await upload(server, bytes);
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(server.pid));
      return { label, before, peak, ms: performance.now() - started };
    };
    const rows = [];
    for (let i = 0; i < UPLOADS; i++) rows.push(await measure(`10 MiB #${i + 1}`, file));
    const worst = Math.max(...rows.map((r) => r.peak - baseline));
    const worstSingle = Math.max(...rows.map((r) => r.peak - r.before));
    const large = await measure('50 MiB', pngOfSize(LARGE_FILE_BYTES));
    rows.push(large);
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${UPLOADS} sequential uploads of ${mib(FILE_BYTES)} MiB`,
      '',
      `Baseline RSS after warm-up: ${mib(baseline)} MiB`,
      '',
      '| upload | RSS before (MiB) | peak RSS (MiB) | growth during this upload (MiB) | growth over baseline (MiB) | time (ms) |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.label} | ${mib(r.before)} | ${mib(r.peak)} | ${mib(r.peak - r.before)} | ${mib(r.peak - baseline)} | ${r.ms.toFixed(0)} |`),
      '',
      `Worst growth during one 10 MiB upload: ${mib(worstSingle)} MiB (target < 30 MiB) -> ${worstSingle < 30 * 1024 * 1024 ? 'PASS' : 'FAIL'}`,
      `Worst growth over the warm baseline across all 10 MiB uploads: ${mib(worst)} MiB`,
      `50 MiB upload: growth over baseline ${mib(large.peak - baseline)} MiB (a buffered body would add at least 50 MiB)`,
    ].join('\n');
    console.log(report);
    writeResult('upload-memory', report);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
