import fs from 'node:fs';
import path from 'node:path';
import { requireSystemTool, systemTools } from '../support/system-tools';

/**
 * A fresh machine of this kind has Node, npm, git and bash; every other program a test spawns
 * comes from a Debian package that .ci/run installs from .ci/system-packages (decision record 0089).
 */
const ROOT = path.resolve(__dirname, '../..');
// tar is a Debian essential package, on every machine of this kind like bash.
const ON_EVERY_MACHINE = new Set(['npm', 'git', 'bash', 'node', 'tar']);

/** Every TypeScript and script file under test/, scripts/ and bench/. */
function sources(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(file);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

/** The programs named by a string literal as the first argument of a child_process call, with the file that names them. */
function spawnedPrograms(): Array<{ program: string; file: string }> {
  const call = /\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*['"`]([^'"`$/]+)['"`]/g;
  const asked = /\brequireSystemTool\(\s*['"`]([^'"`]+)['"`]/g;
  return ['test', 'scripts', 'bench'].flatMap((folder) =>
    // This file names an unlisted tool on purpose.
    sources(path.join(ROOT, folder))
      .filter((file) => file !== __filename)
      .flatMap((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return [...text.matchAll(call), ...text.matchAll(asked)].map((match) => ({
          program: match[1] ?? '',
          file: path.relative(ROOT, file),
        }));
      }),
  );
}

describe('the system tools the tests spawn', () => {
  const listed = new Set(systemTools().map((tool) => tool.command));

  it('lists every program a test or script spawns by name in .ci/system-packages, apart from node, npm, git, bash and tar', () => {
    const unlisted = spawnedPrograms().filter(({ program }) => !ON_EVERY_MACHINE.has(program) && !listed.has(program));
    expect(unlisted).toEqual([]);
  });

  it('has .ci/run install from .ci/system-packages, and the README and docs/development.md name each package', () => {
    expect(fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toContain('done <.ci/system-packages');
    for (const document of ['README.md', 'docs/development.md']) {
      const text = fs.readFileSync(path.join(ROOT, document), 'utf8');
      for (const tool of systemTools())
        expect({ document, mentions: text.includes(tool.debianPackage) }).toEqual({ document, mentions: true });
    }
  });

  it('fails a test that needs a missing tool with a sentence naming the Debian package, not ENOENT', () => {
    const path_ = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(() => requireSystemTool('pdftotext')).toThrow(
        /^pdftotext is not installed on this machine; it is needed by .+\. Install the Debian package poppler-utils \(apt-get install -y poppler-utils\)/,
      );
    } finally {
      process.env.PATH = path_;
    }
  });

  it('refuses a tool that is not on the list, so the next one cannot be forgotten', () => {
    expect(() => requireSystemTool('ffmpeg')).toThrow('ffmpeg is not listed in .ci/system-packages');
  });
});
