import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * scripts/check-decisions.mjs (npm run check:decisions, in CI) on the real docs/decisions/, which
 * must pass, and on copies with one thing broken, which must fail naming the file concerned.
 */
const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/check-decisions.mjs');
const RECORDS = path.join(ROOT, 'docs/decisions');

function check(dir?: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT, ...(dir ? [dir] : [])], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const recordFiles = (): string[] =>
  fs
    .readdirSync(RECORDS)
    .filter((file) => /^\d{4}-.*\.md$/.test(file))
    .sort();

describe('decision records check', () => {
  let copy: string;

  beforeEach(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'decisions-'));
    for (const file of fs.readdirSync(RECORDS)) fs.copyFileSync(path.join(RECORDS, file), path.join(copy, file));
  });

  afterEach(() => fs.rmSync(copy, { recursive: true, force: true }));

  it('passes on the records as committed', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${recordFiles().length} decision records, all indexed`);
  });

  it('fails, naming the record, when a record is missing from the index', () => {
    const removed = recordFiles()[2];
    const index = path.join(copy, 'README.md');
    const lines = fs.readFileSync(index, 'utf8').split('\n');
    fs.writeFileSync(index, lines.filter((line) => !line.includes(`](${removed})`)).join('\n'));

    const run = check(copy);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${removed}: missing from the index`);
  });

  it('fails on a record without a Status line, a superseded-by naming no record, and a gap in the numbers', () => {
    const [first = '', second = ''] = recordFiles();
    const withoutStatus = path.join(copy, first);
    fs.writeFileSync(withoutStatus, fs.readFileSync(withoutStatus, 'utf8').replace(/^Status: .*\n/m, ''));
    const pointingNowhere = path.join(copy, second);
    fs.writeFileSync(
      pointingNowhere,
      fs.readFileSync(pointingNowhere, 'utf8').replace(/^Status: .*$/m, 'Status: superseded by 9999'),
    );
    const last = recordFiles().at(-1) ?? '';
    fs.renameSync(path.join(copy, last), path.join(copy, last.replace(/^\d{4}/, '9998')));

    const run = check(copy);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${first}: no Status line`);
    expect(run.stderr).toContain(`${second}: superseded by 9999, which is no record`);
    expect(run.stderr).toMatch(/9998-.*numbers are not consecutive/);
    expect(run.stderr).toContain(`README.md: links to ${last}, which does not exist`);
  });
});
