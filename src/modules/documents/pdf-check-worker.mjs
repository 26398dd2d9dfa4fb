// The PDF judge, run in a worker thread of PdfCheckPool (pdf-checks.ts) so that no upload holds
// the event loop. Plain JavaScript, not compiled: the same file runs from src/ under Jest (which
// transforms TypeScript in the main thread only) and from dist/ (build-if-stale.mjs copies it).
//
// The judge parses the file with pdf.js's own core (the parser Firefox reads PDFs with): its
// cross-reference table or stream, its object streams, whatever filters they are encoded with,
// and — when the table is broken — its recovery scan of the whole file, the way readers open
// such files. Every object the parser finds is walked, and a PDF holding any of the names that
// make it act rather than show pages is refused. A file the parser cannot read, or that decodes
// to more than the inflated-size budget, cannot be decided and is refused too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Names that make a PDF do something when opened or clicked rather than only show pages: scripts,
 * actions run on opening or on events, launching programs, files carried inside, rich media,
 * forms that send data, and links that leave the document (to another file, GoToR and GoToE, or
 * to a web address, URI: a click on a scan in the back office must not open a page a partner
 * chose). A passport or visa scan needs none of them. (The definition of issues 14 and 40.)
 */
const ACTIVE_NAMES = new Set([
  'JavaScript',
  'JS',
  'OpenAction',
  'AA',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'XFA',
  'SubmitForm',
  'ImportData',
  'GoToR',
  'GoToE',
  'URI',
]);

// A PDF name as written: a slash and the regular characters after it (PDF 32000-1, 7.2.2 and 7.3.5).
const WRITTEN_NAME = /\/([^\s()<>[\]{}/%]*)/g;

class OverBudget extends Error {}
// pdf.js wraps some errors of the decoders it calls: the flag tells an over-budget file whatever reaches the judge.
let overBudget = false;

const { inflatedBudgetBytes } = workerData;
// On Linux a thread's nice value is its own: judging PDFs yields the CPU to the event loop's
// thread (the answers of every other request) when both want it. Elsewhere it may apply to the
// process, so it is left alone there.
if (process.platform === 'linux') {
  try {
    os.setPriority(10);
  } catch {
    // not allowed here: judged at the usual priority
  }
}
const core = await loadPdfCore();
// pdf.js warns on the console about every oddity of a file; the verdict says what matters.
core.setVerbosityLevel(0);
let decodedBytes = 0;
countDecodedBytes(core.DecodeStream);

parentPort.on('message', ({ id, pdf }) => {
  let verdict;
  try {
    verdict = judge(new Uint8Array(pdf));
  } catch (error) {
    verdict = {
      kind: 'undecidable',
      reason: `the PDF reader failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  parentPort.postMessage({ id, verdict });
});
parentPort.postMessage({ ready: true });

/**
 * pdf.js's core is bundled in pdf.worker.mjs, which exports only its message handler. The same
 * source with its parser classes exported as well is imported from a private temporary copy
 * (a directory only this process can write, removed once imported).
 */
async function loadPdfCore() {
  const require = createRequire(import.meta.url);
  const source = fs.readFileSync(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), 'utf8');
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-check-'));
  try {
    const file = path.join(directory, 'pdf-core.mjs');
    fs.writeFileSync(
      file,
      `${source}\nexport { LocalPdfManager, Dict, Name, Ref, BaseStream, DecodeStream, setVerbosityLevel };\n`,
      { mode: 0o600 },
    );
    return await import(pathToFileURL(file).href);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Every decoding filter (Flate, LZW, ASCIIHex, ASCII85, RunLength ...) asks DecodeStream.ensureBuffer
 * for room before writing what it decoded: counting what each stream asks for bounds what one file
 * may decode to, whichever filters, in whatever order, it is written with.
 */
function countDecodedBytes(DecodeStream) {
  const ensureBuffer = DecodeStream.prototype.ensureBuffer;
  const counted = new WeakMap();
  DecodeStream.prototype.ensureBuffer = function (requested) {
    const before = counted.get(this) ?? 0;
    if (requested > before) {
      counted.set(this, requested);
      decodedBytes += requested - before;
      if (decodedBytes > inflatedBudgetBytes) {
        overBudget = true;
        throw new OverBudget('over budget');
      }
    }
    return ensureBuffer.call(this, requested);
  };
}

/** { kind: 'clean' } | { kind: 'active', name: '/OpenAction' } | { kind: 'undecidable', reason } */
function judge(pdf) {
  decodedBytes = 0;
  overBudget = false;
  // Names written plainly in the file are found without parsing it: a broken file with a script
  // is refused as active, not only as unreadable.
  const written = writtenActiveName(pdf);
  if (written) return { kind: 'active', name: written };
  let document;
  try {
    document = open(pdf);
  } catch (error) {
    return undecidable(error);
  }
  try {
    const found = activeObject(document.xref);
    return found ? { kind: 'active', name: found } : { kind: 'clean' };
  } catch (error) {
    return undecidable(error);
  }
}

function undecidable(error) {
  if (overBudget) {
    return {
      kind: 'undecidable',
      reason: `its streams decode to more than ${Math.round(inflatedBudgetBytes / 1024 / 1024)} MiB`,
    };
  }
  const name = error?.constructor?.name;
  if (name === 'PasswordException') return { kind: 'undecidable', reason: 'it is encrypted with a password' };
  return { kind: 'undecidable', reason: 'its structure could not be read' };
}

/** Opens the file as pdf.js does: by its cross-reference data, else by scanning for its objects. */
function open(pdf) {
  try {
    return parsed(pdf, false);
  } catch (error) {
    if (overBudget || error?.constructor?.name === 'PasswordException') throw error;
    decodedBytes = 0;
    return parsed(pdf, true);
  }
}

function parsed(pdf, recoveryMode) {
  const manager = new core.LocalPdfManager({
    source: pdf,
    docId: 'upload',
    evaluatorOptions: { isEvalSupported: false },
    enableXfa: false,
    password: undefined,
    handler: null,
  });
  const document = manager.pdfDocument;
  document.checkHeader();
  document.parseStartXRef();
  // Reads the catalogue too, and throws without one: a file without it is not a PDF a reader shows.
  document.parse(recoveryMode);
  return document;
}

/** The first active name among every object of the file, object streams' members included. */
function activeObject(xref) {
  for (let num = 0; num < xref.entries.length; num++) {
    const entry = xref.entries[num];
    if (!entry || entry.free) continue;
    const found = activeValue(xref.fetch(core.Ref.get(num, entry.gen)), 0);
    if (found) return found;
  }
  return undefined;
}

/** Direct values only: references are other objects, which the loop above visits anyway. */
function activeValue(value, depth) {
  if (depth > 100) throw new Error('objects nested too deep');
  if (value instanceof core.Name) return ACTIVE_NAMES.has(value.name) ? `/${value.name}` : undefined;
  if (value instanceof core.BaseStream) return value.dict ? activeValue(value.dict, depth + 1) : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = activeValue(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (value instanceof core.Dict) {
    for (const key of value.getKeys()) {
      if (ACTIVE_NAMES.has(key)) return `/${key}`;
      const found = activeValue(value.getRaw(key), depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** The first active name written in the bytes themselves, `#xx` escapes (`/J#61vaScript`) read. */
function writtenActiveName(pdf) {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  for (const [, raw] of text.matchAll(WRITTEN_NAME)) {
    const name = raw.includes('#')
      ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
      : raw;
    if (ACTIVE_NAMES.has(name)) return `/${name}`;
  }
  return undefined;
}
