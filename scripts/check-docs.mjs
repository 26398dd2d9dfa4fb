// Checks the documents a newcomer and an operator read first (in the repository given as the
// first argument, or this one):
// - README.md is under 200 lines and ARCHITECTURE.md under 250: past that they stop being read in
//   one sitting, and what grew belongs in docs/;
// - every relative link in README.md, ARCHITECTURE.md and docs/**/*.md resolves to a file or
//   folder of the repository (a moved or renamed file otherwise leaves a dead link nobody sees).
// Links inside code (fenced blocks, `inline`) are examples, not links, and are not checked; web
// addresses and in-page anchors are not checked either. Each problem is printed with the file
// and line it concerns; any problem exits 1. Plain Node, no dependencies.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const LINE_LIMITS = { 'README.md': 200, 'ARCHITECTURE.md': 250 };

const problems = [];
const problem = (file, text) => problems.push(`${file}: ${text}`);

function markdownUnder(dir) {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

// `[text](target "title")` and reference definitions `[name]: target`.
const INLINE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_LINK = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
const NOT_A_FILE = /^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i;

/** The lines of a markdown file with fenced code blocks and inline code blanked out. */
function proseLines(text) {
  let fence;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker;
      return '';
    }
    return fence ? '' : line.replace(/(`+)[\s\S]*?\1/g, '');
  });
}

function checkLinks(file) {
  const lines = proseLines(fs.readFileSync(path.join(root, file), 'utf8'));
  lines.forEach((line, i) => {
    const targets = [...line.matchAll(INLINE_LINK)].map((match) => match[1]);
    const reference = REFERENCE_LINK.exec(line)?.[1];
    if (reference) targets.push(reference);
    for (const target of targets) {
      if (NOT_A_FILE.test(target)) continue;
      const filePart = decodeURIComponent(target.replace(/[#?].*$/, ''));
      if (filePart === '') continue;
      const resolved = filePart.startsWith('/')
        ? path.join(root, filePart)
        : path.resolve(root, path.dirname(file), filePart);
      if (!resolved.startsWith(root) || !fs.existsSync(resolved))
        problem(`${file}:${i + 1}`, `links to ${target}, which does not exist`);
    }
  });
}

for (const [file, limit] of Object.entries(LINE_LIMITS)) {
  if (!fs.existsSync(path.join(root, file))) {
    problem(file, 'is missing');
    continue;
  }
  const lines = fs.readFileSync(path.join(root, file), 'utf8').replace(/\n$/, '').split('\n').length;
  if (lines >= limit) problem(file, `has ${lines} lines; keep it under ${limit} (move the detail to docs/)`);
}

const checked = [
  ...Object.keys(LINE_LIMITS).filter((file) => fs.existsSync(path.join(root, file))),
  ...markdownUnder('docs'),
];
for (const file of checked) checkLinks(file);

if (problems.length > 0) {
  for (const line of problems) console.error(line);
  process.exit(1);
}
console.log(
  `${checked.length} documents, every relative link resolves; README.md and ARCHITECTURE.md within their line limits`,
);
