import fs from 'node:fs';
import path from 'node:path';

/**
 * Decision record 0048: a module's index.ts names what it exports (no `export *`), and only what
 * something outside the module uses: a name nobody imports is a face wider than the module's use.
 */
const ROOT = path.join(__dirname, '../..');
const MODULES = path.join(ROOT, 'src/modules');
const modules = fs.readdirSync(MODULES).filter((entry) => fs.existsSync(path.join(MODULES, entry, 'index.ts')));

function sourcesOutside(moduleDir: string): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== moduleDir && entry.name !== 'node_modules' && entry.name !== 'generated') walk(full);
      } else if (/\.(ts|mts)$/.test(entry.name)) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  for (const top of ['src', 'test', 'bench', 'scripts']) walk(path.join(ROOT, top));
  return texts.join('\n');
}

function exportedNames(face: string): string[] {
  const lists = [...face.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].map((match) => match[1] ?? '');
  return lists
    .flatMap((list) =>
      list.split(',').map(
        (name) =>
          name
            .replace(/^\s*type\s+/, '')
            .split(' as ')
            .at(-1)
            ?.trim() ?? '',
      ),
    )
    .filter(Boolean);
}

describe('module faces', () => {
  it.each(modules)('%s/index.ts names its exports (no export *)', (module) => {
    const face = fs.readFileSync(path.join(MODULES, module, 'index.ts'), 'utf8');
    expect(face).not.toMatch(/export\s+\*/);
  });

  it.each(modules)('every name %s/index.ts exports is used outside the module', (module) => {
    const moduleDir = path.join(MODULES, module);
    const outside = sourcesOutside(moduleDir);
    const unused = exportedNames(fs.readFileSync(path.join(moduleDir, 'index.ts'), 'utf8')).filter(
      (name) => !new RegExp(`\\b${name}\\b`).test(outside),
    );
    expect(unused).toEqual([]);
  });
});
