import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Decision record 0111: each table is written only by the module that owns it, the module whose
 * `entities/` holds its entity class (kernel for the kernel's own tables). Read from the TypeScript
 * program of `src/` (migrations and tests are outside the rule) with its type checker:
 *
 * - an assignment to a field (`x.f = …`, `x.f += …`, `x.f++`) of a value whose type is an entity class,
 *   and `Object.assign(x, …)` / `em.assign(x, …)` / `em.remove(x)` of one;
 * - an entity manager's `create`, `insert`, `upsert`, `nativeInsert`, `nativeUpdate` or `nativeDelete`
 *   naming an entity class;
 * - an INSERT INTO, UPDATE or DELETE FROM naming a table in a string or template written in the file
 *   (SQL is judged by the file its text is written in: a module may run the SQL its owner exports,
 *   decision record 0106).
 *
 * Each must sit in the table's owner. Every exception is listed below with its reason.
 */
const ROOT = path.join(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** Tables with no entity class, and who owns them (read in the migration that creates each). */
const TABLES_WITHOUT_ENTITY: Readonly<Record<string, string>> = {
  idempotent_create: 'kernel', // kernel/http/idempotent-create.ts: the replay store of every create
  database_mode: 'kernel', // kernel/db: which payment mode a database was made for (decision 0093)
  sandbox_clock: 'kernel', // kernel/test-clock.ts: the sandbox test clock's store
  catalogue_version: 'catalogue',
  commission_period_close: 'commissions',
};

/**
 * Writes still made outside the owner, each with its reason: `<file relative to src/> <table>`.
 * Issue 51 item 1 moved every one (the last, the demo data's promo codes, to promos' `demo-promo-codes.ts`,
 * composed with partners' demo companies in `src/seed.ts` and `src/demo-data.ts`): a new write of another
 * module's table goes through a function of the owner, or a port where the owner builds on the writer.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The module a file belongs to: a folder of src/modules, `kernel`, or the composition (src/*.ts, src/cli). */
function moduleOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  if (relative[0] === 'modules') return relative[1] ?? 'composition';
  if (relative[0] === 'kernel') return 'kernel';
  return 'composition';
}

function entityTableName(declaration: ts.ClassDeclaration): string | undefined {
  for (const decorator of ts.getDecorators(declaration) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== 'Entity') continue;
    const options = call.arguments[0];
    if (options && ts.isObjectLiteralExpression(options))
      for (const property of options.properties)
        if (
          ts.isPropertyAssignment(property) &&
          ts.isIdentifier(property.name) &&
          property.name.text === 'tableName' &&
          ts.isStringLiteral(property.initializer)
        )
          return property.initializer.text;
    // MikroORM's default naming: PaymentAttempt -> payment_attempt.
    return (declaration.name?.text ?? '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  }
  return undefined;
}

interface Write {
  file: string;
  line: number;
  table: string;
  owner: string;
  what: string;
  /** The field assigned, for `x.f = …`. */
  field?: string;
}

/** Fields moved by one state machine's one writer (decision records 0075 and 0111): `<table>.<field>` -> its file. */
const ONE_WRITER: Readonly<Record<string, string>> = {
  'payment_attempt.status': 'modules/payments/attempt-life.ts',
  'payment_attempt_order.settlement': 'modules/payments/attempt-life.ts',
};

function tableWrites(): Write[] {
  const files = sourceFiles(SRC);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const sources = files.map((file) => program.getSourceFile(file)).filter((source) => source !== undefined);

  // Entity class -> table and owner, from each class's @Entity decorator.
  const entities = new Map<ts.Symbol, { table: string; owner: string }>();
  const owners = new Map<string, string>(Object.entries(TABLES_WITHOUT_ENTITY));
  for (const source of sources)
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      const table = entityTableName(statement);
      const symbol = checker.getSymbolAtLocation(statement.name);
      if (!table || !symbol) continue;
      entities.set(symbol, { table, owner: moduleOf(source.fileName) });
      owners.set(table, moduleOf(source.fileName));
    }

  // Every entity a type names: a union (`Company | PromoCode`) or an intersection (MikroORM's `Loaded<…>`) names each of its parts.
  const entitiesOfType = (type: ts.Type): Array<{ table: string; owner: string }> => {
    if (type.isUnionOrIntersection()) return type.types.flatMap(entitiesOfType);
    const symbol = type.getSymbol() ?? type.aliasSymbol;
    const entity = symbol && entities.get(symbol);
    return entity ? [entity] : [];
  };
  const entitiesOfValue = (node: ts.Expression) => [
    ...new Map(entitiesOfType(checker.getTypeAtLocation(node)).map((entity) => [entity.table, entity])).values(),
  ];
  const entityOfClass = (node: ts.Expression | undefined) => {
    if (!node) return undefined;
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol ? entities.get(symbol) : undefined;
  };

  const SQL_WRITE = /\b(insert\s+into|update|delete\s+from)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;
  const ORM_WRITES = new Set([
    'create',
    'insert',
    'insertMany',
    'upsert',
    'upsertMany',
    'nativeInsert',
    'nativeUpdate',
    'nativeDelete',
  ]);
  const writes: Write[] = [];

  for (const source of sources) {
    const file = path.relative(SRC, source.fileName);
    const note = (node: ts.Node, entity: { table: string; owner: string }, what: string, field?: string) =>
      writes.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        table: entity.table,
        owner: entity.owner,
        what,
        field,
      });
    const fieldTarget = (target: ts.Expression) => {
      if (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) {
        const field = ts.isPropertyAccessExpression(target) ? target.name.text : undefined;
        for (const entity of entitiesOfValue(target.expression))
          note(target, entity, `${target.getText(source)} =`, field);
      }
    };
    const sqlText = (text: string, node: ts.Node) => {
      for (const match of text.matchAll(SQL_WRITE)) {
        const table = (match[2] ?? '').toLowerCase();
        const owner = owners.get(table);
        if (owner) note(node, { table, owner }, `SQL ${(match[1] ?? '').toUpperCase().replace(/\s+/, ' ')} ${table}`);
      }
    };
    const visit = (node: ts.Node): void => {
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
      )
        fieldTarget(node.left);
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      )
        fieldTarget(node.operand);
      else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const [first] = node.arguments;
        if (method === 'assign' || method === 'remove') {
          for (const entity of first ? entitiesOfValue(first) : [])
            note(node, entity, `${node.expression.getText(source)}(${first?.getText(source)})`);
        } else if (ORM_WRITES.has(method)) {
          const entity = entityOfClass(first);
          if (entity) note(node, entity, `${method}(${first?.getText(source)})`);
        }
      } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sqlText(node.text, node);
      else if (ts.isTemplateExpression(node))
        sqlText([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ${…} '), node);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return writes;
}

describe('each table is written only by the module that owns it', () => {
  const writes = tableWrites();

  it('finds the writes it judges (the reader is not blind)', () => {
    const seen = (file: string, table: string) => writes.some((write) => write.file === file && write.table === table);
    expect(seen('modules/refunds/refund-life.ts', 'refund')).toBe(true); // Object.assign(refund, …), create(Refund, …)
    expect(seen('modules/orders/cancellation-record.ts', 'insurance_order')).toBe(true); // order.status = …
    expect(seen('modules/commissions/period-closing.ts', 'commission_period_close')).toBe(true); // SQL
  });

  it('every write outside its table owner is an allowed exception', () => {
    const foreign = writes
      .filter((write) => moduleOf(path.join(SRC, write.file)) !== write.owner)
      .filter((write) => !(`${write.file} ${write.table}` in ALLOWED))
      .map((write) => `${write.file}:${write.line} writes ${write.table} (owned by ${write.owner}): ${write.what}`);
    expect(foreign).toEqual([]);
  });

  it.each(Object.entries(ONE_WRITER))('%s is assigned only in %s', (field, writer) => {
    const writers = writes.filter((write) => `${write.table}.${write.field}` === field).map((write) => write.file);
    expect([...new Set(writers)]).toEqual([writer]);
  });

  it('every allowed exception is still needed', () => {
    const needed = new Set(writes.map((write) => `${write.file} ${write.table}`));
    expect(Object.keys(ALLOWED).filter((key) => !needed.has(key))).toEqual([]);
  });
});
