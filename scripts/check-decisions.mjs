// Checks the decision records in docs/decisions/ (or the folder given as the first argument):
// - every record is a file NNNN-title.md whose first line is "# NNNN. Title" with its own number;
// - the numbers are unique and consecutive from 0001;
// - every record has a "Status:" line (accepted, superseded by NNNN, partly superseded by NNNN,
//   several numbers separated by commas or "and"), and every NNNN it names is another record;
// - the index (README.md) has a line "- [NNNN. Title](file) — status" for every record, with the
//   record's own title and status, and every record file it links to exists.
// Each problem is printed with the file it concerns; any problem exits 1. Plain Node, no dependencies.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs/decisions'));
const shown = (file) => {
  const relative = path.relative(process.cwd(), path.join(dir, file));
  return relative.startsWith('..') ? path.join(dir, file) : relative;
};
const problems = [];
const problem = (file, text) => problems.push(`${shown(file)}: ${text}`);

const RECORD_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const STATUS = /^Status: (accepted|(?:partly )?superseded by (\d{4}(?:(?:, | and )\d{4})*))$/;
const NOT_RECORDS = new Set(['README.md', 'history.md']);

if (!fs.existsSync(path.join(dir, 'README.md'))) {
  console.error(`${shown('README.md')}: the index is missing`);
  process.exit(1);
}

const records = new Map(); // number -> { file, title, status, supersededBy }
for (const file of fs.readdirSync(dir).sort()) {
  if (!file.endsWith('.md') || NOT_RECORDS.has(file)) continue;
  const name = file.match(RECORD_FILE);
  if (!name) {
    problem(file, 'not a record name (NNNN-title.md, lower-case words joined by "-")');
    continue;
  }
  const number = name[1];
  if (records.has(number)) {
    problem(file, `number ${number} is also ${records.get(number).file}`);
    continue;
  }
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
  const heading = lines[0].match(/^# (\d{4})\. (\S.*)$/);
  if (!heading) problem(file, 'the first line is not "# NNNN. Title"');
  else if (heading[1] !== number) problem(file, `the heading says ${heading[1]}, the file name ${number}`);
  const statusLine = lines.slice(1).find((line) => line.trim() !== '');
  const status = statusLine?.match(STATUS);
  if (!status)
    problem(
      file,
      `no Status line after the heading (accepted, superseded by NNNN or partly superseded by NNNN); found "${statusLine ?? ''}"`,
    );
  records.set(number, {
    file,
    title: heading?.[2],
    status: status?.[1],
    supersededBy: status?.[2] ? status[2].split(/, | and /) : [],
  });
}

const numbers = [...records.keys()].sort();
numbers.forEach((number, i) => {
  const expected = i === 0 ? '0001' : String(Number(numbers[i - 1]) + 1).padStart(4, '0');
  if (number !== expected)
    problem(records.get(number).file, `numbers are not consecutive: expected ${expected}, found ${number}`);
});
for (const [number, record] of records) {
  for (const later of record.supersededBy) {
    if (later === number) problem(record.file, `superseded by itself (${later})`);
    else if (!records.has(later)) problem(record.file, `superseded by ${later}, which is no record`);
  }
}

const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
const statusLines = new Map(); // file -> [{ number, title, status }]
const missingTargets = new Set();
for (const line of index.split('\n')) {
  for (const [, target] of line.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)) {
    if (!missingTargets.has(target) && !fs.existsSync(path.join(dir, target))) {
      missingTargets.add(target);
      problem('README.md', `links to ${target}, which does not exist`);
    }
  }
  const entry = line.match(/^- \[(\d{4})\. (.+)\]\(([^)]+)\) — (.+)$/);
  if (entry)
    statusLines.set(entry[3], [
      ...(statusLines.get(entry[3]) ?? []),
      { number: entry[1], title: entry[2], status: entry[4] },
    ]);
}
for (const record of records.values()) {
  const entries = statusLines.get(record.file) ?? [];
  if (entries.length === 0) {
    problem(record.file, 'missing from the index (README.md needs "- [NNNN. Title](file) — status")');
    continue;
  }
  if (entries.length > 1) problem(record.file, 'listed with its status more than once in the index');
  const [entry] = entries;
  if (entry.number !== record.file.slice(0, 4)) problem(record.file, `the index numbers it ${entry.number}`);
  if (record.title !== undefined && entry.title !== record.title)
    problem(record.file, `the index titles it "${entry.title}", the record "${record.title}"`);
  if (record.status !== undefined && entry.status !== record.status)
    problem(record.file, `the index says "${entry.status}", the record "Status: ${record.status}"`);
}

if (problems.length > 0) {
  for (const line of problems) console.error(line);
  console.error(`${problems.length} problem(s) in the decision records`);
  process.exit(1);
}
const superseded = [...records.values()].filter((record) => record.status !== 'accepted').length;
console.log(
  `${records.size} decision records, all indexed; ${superseded} superseded in whole or part, each by a record that exists`,
);
