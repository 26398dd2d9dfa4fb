// Resident memory of the server while it receives 10 MiB uploads: the body must be streamed to
// storage, not buffered. Samples the server's VmRSS from /proc every 2 ms during each upload.
// Run: npm run build && node bench/upload-memory.mjs            (local disk storage)
//      npm run build && node bench/upload-memory.mjs --s3       (S3 storage: s3rver on loopback, in this process)
import S3rver from '@20minutes/s3rver';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  // A PNG signature and an IHDR chunk (600 x 800, 8-bit RGB), so the image check reads real dimensions.
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000002580000032008020000000000000000', 'hex');
  header.copy(file);
  return file;
}

async function upload(server, bytes, documentType = 'PASSPORT') {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'passport.png');
  const response = await fetch(`${server.url}/api/external/v1/documents`, {
    method: 'POST',
    headers: { authorization: server.authorization },
    body: form,
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

const ON_S3 = process.argv.includes('--s3');

/** An S3 endpoint for the server to stream to; it runs in the bench process, so its memory is not the server's. */
async function s3Endpoint() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'bench' }],
  });
  const { port } = await s3.run();
  return {
    env: {
      DOCUMENT_STORAGE: 's3',
      S3_BUCKET: 'bench',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: async () => {
      await s3.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function main() {
  const s3 = ON_S3 ? await s3Endpoint() : undefined;
  const server = await startBenchServer('upload', {
    MAX_UPLOAD_BYTES: String(LARGE_FILE_BYTES),
    ...s3?.env,
  });
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
      `Run ${new Date().toISOString()}, Node ${process.version}, ${UPLOADS} sequential uploads of ${mib(FILE_BYTES)} MiB to ${ON_S3 ? 'S3 (s3rver on loopback)' : 'the local disk'}`,
      '',
      `Baseline RSS after warm-up: ${mib(baseline)} MiB`,
      '',
      '| upload | RSS before (MiB) | peak RSS (MiB) | growth during this upload (MiB) | growth over baseline (MiB) | time (ms) |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${mib(r.before)} | ${mib(r.peak)} | ${mib(r.peak - r.before)} | ${mib(r.peak - baseline)} | ${r.ms.toFixed(0)} |`,
      ),
      '',
      `Worst growth during one 10 MiB upload: ${mib(worstSingle)} MiB (target < 30 MiB) -> ${worstSingle < 30 * 1024 * 1024 ? 'PASS' : 'FAIL'}`,
      `Worst growth over the warm baseline across all 10 MiB uploads: ${mib(worst)} MiB`,
      `50 MiB upload: growth over baseline ${mib(large.peak - baseline)} MiB (a buffered body would add at least 50 MiB)`,
    ].join('\n');
    console.log(report);
    writeResult(ON_S3 ? 'upload-memory-s3' : 'upload-memory', report);
  } finally {
    await server.stop();
    await s3?.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
