import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * scripts/check-docs.mjs (npm run check:docs, in CI) on the repository as committed, which must
 * pass, and on copies of its documents and code with one thing broken, which must fail naming the
 * file (decision records 0080 and 0105).
 */
const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/check-docs.mjs');

function check(root?: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A copy of what the check reads and of what those documents link to (the tree but node_modules, data and builds). */
function copyOfTheDocuments(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'entry-documents-'));
  const skipped = new Set(['node_modules', '.git', '.data', 'dist', 'coverage']);
  fs.cpSync(ROOT, copy, { recursive: true, filter: (source) => !skipped.has(path.basename(source)) });
  return copy;
}

describe('the entry documents check', () => {
  let copy: string;

  beforeAll(() => {
    copy = copyOfTheDocuments();
  });
  afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

  const rewrite = (file: string, change: (text: string) => string): (() => void) => {
    const full = path.join(copy, file);
    const before = fs.readFileSync(full, 'utf8');
    fs.writeFileSync(full, change(before));
    return () => fs.writeFileSync(full, before);
  };

  it('passes on the documents as committed: README under 200 lines, ARCHITECTURE.md under 250, every relative link resolving, no comment pointing outside', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('every relative link resolves');
    expect(run.stdout).toContain('code files cite nothing outside the repository and name only folders that exist');
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('fails when README.md reaches 200 lines, naming it', () => {
    const restore = rewrite('README.md', (text) => text + '\nmore\n'.repeat(200));
    try {
      const run = check(copy);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^README\.md: has \d+ lines; keep it under 200/m);
    } finally {
      restore();
    }
  });

  it('fails when ARCHITECTURE.md reaches 250 lines, naming it', () => {
    const restore = rewrite('ARCHITECTURE.md', (text) => text + '\nmore\n'.repeat(250));
    try {
      const run = check(copy);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^ARCHITECTURE\.md: has \d+ lines; keep it under 250/m);
    } finally {
      restore();
    }
  });

  it('fails on a relative link to a file that does not exist, naming the document and its line, but not on one inside code', () => {
    const restoreReadme = rewrite('README.md', (text) =>
      text.replace(/\n/, '\nSee [the moved page](docs/no-such-page.md#setup) and `[code](docs/not-checked.md)`.\n'),
    );
    const restoreWebhooks = rewrite(
      'docs/webhooks.md',
      (text) => `${text}\n\n[gone](../src/no-such-folder/)\n\n\`\`\`md\n[example](nowhere.md)\n\`\`\`\n`,
    );
    try {
      const run = check(copy);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('README.md:2: links to docs/no-such-page.md#setup, which does not exist');
      expect(run.stderr).toMatch(/docs\/webhooks\.md:\d+: links to \.\.\/src\/no-such-folder\/, which does not exist/);
      expect(run.stderr).not.toContain('not-checked.md');
      expect(run.stderr).not.toContain('nowhere.md');
    } finally {
      restoreReadme();
      restoreWebhooks();
    }
  });

  // Built from parts, so this file does not cite an outside document itself.
  const DESIGN = 'DESIGN';
  it('fails on a code or test comment citing a document outside the repository, naming the file and its line', () => {
    const restoreCode = rewrite('src/modules/orders/order-book.ts', (text) =>
      text.replace(/\n/, `\n// Newest first (${DESIGN} "The order book").\n`),
    );
    const restoreTest = rewrite('test/orders/order-book.test.ts', (text) =>
      text.replace(/\n/, `\n// See ${DESIGN}.md section 3 and ${'..'}/shared/${'SPEC'}.md.\n`),
    );
    try {
      const run = check(copy);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `src/modules/orders/order-book.ts:2: cites "${DESIGN} "", a document outside the repository`,
      );
      expect(run.stderr).toContain(
        `test/orders/order-book.test.ts:2: cites "${DESIGN}.md", a document outside the repository`,
      );
    } finally {
      restoreCode();
      restoreTest();
    }
    expect(check(copy).status).toBe(0);
  });

  it('fails on a comment naming a folder that does not exist, but not on folders that do or that a build makes', () => {
    const restore = rewrite('src/modules/orders/order-book.ts', (text) =>
      text.replace(
        /\n/,
        '\n// The pricing rule lives in domain/order-pricing.ts; not rules/order-pricing.ts, dist/src/main.js or text/csv.\n',
      ),
    );
    try {
      const run = check(copy);
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        'src/modules/orders/order-book.ts:2: names the folder domain/, which does not exist',
      ]);
    } finally {
      restore();
    }
    expect(check(copy).status).toBe(0);
  });
});
