import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Decision 0048 (one folder per capability): a module's index.ts names what it exports (no
 * `export *`), and only what something outside the module imports from it. Read from the
 * TypeScript syntax tree of every source, test, bench and script file outside the module: an
 * import (or re-export) of the module's face, by name. A name that merely appears in a comment, a
 * string or another module's own declaration does not count (issue 51 item 8).
 */
const ROOT = path.join(__dirname, '../..');
const MODULES = path.join(ROOT, 'src/modules');
const modules = fs.readdirSync(MODULES).filter((entry) => fs.existsSync(path.join(MODULES, entry, 'index.ts')));

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'generated') walk(full);
      } else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const top of ['src', 'test', 'bench', 'scripts'])
    if (fs.existsSync(path.join(ROOT, top))) walk(path.join(ROOT, top));
  return files;
}

/** The module folder an import specifier of `file` reaches through its face, if it does. */
function faceImported(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(file), specifier).replace(/\/index$/, '');
  return path.dirname(target) === MODULES ? path.basename(target) : undefined;
}

/** For each module, the names files outside it import from (or re-export through) its face. */
function importedFromFaces(): Map<string, Set<string>> {
  const imported = new Map<string, Set<string>>(modules.map((module) => [module, new Set<string>()]));
  for (const file of sourceFiles()) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const module = faceImported(file, specifier.text);
      if (!module || file.startsWith(path.join(MODULES, module) + path.sep)) continue;
      const names = imported.get(module);
      const bindings = isImport ? statement.importClause?.namedBindings : statement.exportClause;
      if (!names || !bindings) continue;
      if (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))
        for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
    }
  }
  return imported;
}

/** The names a face exports, from its syntax tree. */
function exportedNames(module: string): string[] {
  const file = path.join(MODULES, module, 'index.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) =>
    ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)
      ? statement.exportClause.elements.map((element) => element.name.text)
      : [],
  );
}

describe('module faces', () => {
  const imported = importedFromFaces();

  it.each(modules)('%s/index.ts names its exports (no export *)', (module) => {
    const face = fs.readFileSync(path.join(MODULES, module, 'index.ts'), 'utf8');
    expect(face).not.toMatch(/export\s+\*/);
  });

  it.each(modules)('every name %s/index.ts exports is imported from it outside the module', (module) => {
    const used = imported.get(module) ?? new Set<string>();
    expect(exportedNames(module).filter((name) => !used.has(name))).toEqual([]);
  });
});
