import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run format:check` (in CI) is Prettier with the project's .prettierrc.json: the committed
 * tree passes, and a file whose layout was broken by hand fails, naming the file.
 */
const ROOT = path.resolve(__dirname, '../..');
const PRETTIER = path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
const SAMPLE = path.join(ROOT, 'src/kernel/money.ts');

function prettierCheck(file: string): { status: number | null; output: string } {
  const run = spawnSync(
    process.execPath,
    [PRETTIER, '--config', path.join(ROOT, '.prettierrc.json'), '--check', file],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('format check', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'format-'));
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes on a source file as committed', () => {
    const copy = path.join(dir, 'money.ts');
    fs.copyFileSync(SAMPLE, copy);

    expect(prettierCheck(copy)).toMatchObject({ status: 0 });
  });

  it('fails, naming the file, when a line is joined past the 120-character width and quotes are changed', () => {
    const broken = path.join(dir, 'broken.ts');
    const source = fs.readFileSync(SAMPLE, 'utf8').replaceAll("'", '"');
    fs.writeFileSync(broken, `${source}\nexport const tooLong = [${'"abcdefghij", '.repeat(12)}];\n`);

    const run = prettierCheck(broken);
    expect(run.status).toBe(1);
    expect(run.output).toContain('broken.ts');
  });
});
