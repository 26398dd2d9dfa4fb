// Checks the documents a newcomer and an operator read first (in the repository given as the
// first argument, or this one):
// - README.md is under 200 lines and ARCHITECTURE.md under 250: past that they stop being read in
//   one sitting, and what grew belongs in docs/;
// - every relative link in README.md, ARCHITECTURE.md and docs/**/*.md resolves to a file or
//   folder of the repository (a moved or renamed file otherwise leaves a dead link nobody sees).
// Links inside code (fenced blocks, `inline`) are examples, not links, and are not checked; web
// addresses and in-page anchors are not checked either.
// The code's own text (src/, test/, scripts/, bench/, examples/, the typed client and the root
// config files) points nowhere a maintainer cannot follow (decision record 0105):
// - no citation of a document outside the repository (the design notes `DESIGN "…"`, DESIGN.md,
//   the partner contract's SPEC.md or its section numbers, ../shared/): the reasoning is cited by
//   its decision record in docs/decisions/, the contract by its file in spec/;
// - every folder a comment names in a path (`rules/`, `travellers/rules/x.ts`) is a folder of the
//   repository, so a folder that was renamed or removed leaves no comment pointing at it.
// Each problem is printed with the file and line it concerns; any problem exits 1. Plain Node,
// no dependencies.
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

const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  '.data',
  'dist',
  'build',
  'coverage',
  'generated',
  'fixtures',
  'files',
]);
const CODE_FILE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
/** The folders of the repository, relative to its root ("src/modules/orders/rules"). */
function foldersUnder(dir) {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === '.git') return [];
    const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
    return [relative, ...foldersUnder(relative)];
  });
}
function codeUnder(dir) {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : codeUnder(relative);
    return CODE_FILE.test(entry.name) ? [relative] : [];
  });
}

// A citation of a document that is not in this repository. The words are split so this file
// does not cite one itself.
const OUTSIDE = new RegExp(
  [
    String.raw`\bDESIGN(?:\.md\b|\s+"|\s+section\b|'s\b)`,
    String.raw`\bSPEC(?:\.md\b|\s+\d)`,
    String.raw`\.\./shared/`,
  ].join('|'),
);
// A folder path in a comment: one or more `name/` not inside a longer path or address, ending the
// word or followed by a file name with an extension.
const FOLDER_PATH = /(?<![\w./@:-])((?:[a-z][\w-]*\/)+)(?:[\w-]+\.[a-z]{2,4}\b|(?=[\s),.;:'`]|$))/g;
// The folders a build or a run makes (.gitignore's `name/` lines) count as the repository's too.
const madeFolders = fs.existsSync(path.join(root, '.gitignore'))
  ? fs
      .readFileSync(path.join(root, '.gitignore'), 'utf8')
      .split('\n')
      .flatMap((line) => (/^\/?[\w./-]+\/$/.test(line.trim()) ? [line.trim().replace(/^\/|\/$/g, '')] : []))
  : [];
const folders = [...foldersUnder(''), ...madeFolders];

const isFolder = (named) =>
  folders.some((folder) => folder === named || folder.endsWith(`/${named}`)) ||
  madeFolders.some((made) => named.startsWith(`${made}/`));

/** The comment text of a line of code ('' when it has none); good enough for the checks above. */
function commentOf(line) {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//')) return line;
  const trailing = line.indexOf(' // ');
  return trailing >= 0 ? line.slice(trailing) : '';
}

const code = [
  ...['src', 'test', 'scripts', 'bench', 'examples', 'clients/typescript/src'].flatMap(codeUnder),
  ...fs.readdirSync(root).filter((name) => CODE_FILE.test(name)),
].filter((file) => file !== 'scripts/check-docs.mjs');
for (const file of code) {
  fs.readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const outside = OUTSIDE.exec(line)?.[0];
      if (outside)
        problem(
          `${file}:${i + 1}`,
          `cites "${outside.trim()}", a document outside the repository; cite its decision record in docs/decisions/ (or the contract's file in spec/)`,
        );
      for (const match of commentOf(line).matchAll(FOLDER_PATH)) {
        const named = match[1].replace(/\/$/, '');
        if (!isFolder(named)) problem(`${file}:${i + 1}`, `names the folder ${match[1]}, which does not exist`);
      }
    });
}

if (problems.length > 0) {
  for (const line of problems) console.error(line);
  process.exit(1);
}
console.log(
  `${checked.length} documents, every relative link resolves; README.md and ARCHITECTURE.md within their line limits; ` +
    `${code.length} code files cite nothing outside the repository and name only folders that exist`,
);
