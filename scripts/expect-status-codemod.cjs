// Rewrites `expect(x.status).toBe(N)` (toEqual, toStrictEqual) with a literal HTTP status N into
// `expectStatus(x, N)` and adds its import: the one-off rewrite of test/ (issue 41), kept for
// branches written before it, which the no-restricted-syntax rule in eslint.config.mjs now refuses.
//   node scripts/expect-status-codemod.cjs test/orders/new-file.test.ts ...
// Checks against a variable status (toBe(status)) are left for a person: lint does not refuse them.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const HELPER = path.resolve(__dirname, '../test/support/expect-status');

function statusChecks(sourceFile) {
  const edits = [];
  const visit = (node) => {
    const check = statusCheck(node, sourceFile);
    if (check) return edits.push(check);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return edits;
}

/** `expect(subject.status).toBe(N)` as an edit to `expectStatus(subject, N)`, or undefined. */
function statusCheck(node, sourceFile) {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.arguments.length !== 1)
    return undefined;
  if (!['toBe', 'toEqual', 'toStrictEqual'].includes(node.expression.name.text)) return undefined;
  const target = node.expression.expression;
  if (
    !ts.isCallExpression(target) ||
    !ts.isIdentifier(target.expression) ||
    target.expression.text !== 'expect' ||
    target.arguments.length !== 1
  )
    return undefined;
  const [checked] = target.arguments;
  if (!ts.isPropertyAccessExpression(checked) || checked.name.text !== 'status') return undefined;
  const [status] = node.arguments;
  if (!ts.isNumericLiteral(status) || !/^[1-5]\d\d$/.test(status.text)) return undefined;
  const subject = ts.isParenthesizedExpression(checked.expression) ? checked.expression.expression : checked.expression;
  return {
    start: node.getStart(sourceFile),
    end: node.getEnd(),
    text: `expectStatus(${subject.getText(sourceFile)}, ${status.text})`,
  };
}

function withImport(file, text) {
  if (/import \{[^}]*\bexpectStatus\b/.test(text)) return text;
  let from = path
    .relative(path.dirname(path.resolve(file)), HELPER)
    .split(path.sep)
    .join('/');
  if (!from.startsWith('.')) from = `./${from}`;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports = sourceFile.statements.filter((statement) => ts.isImportDeclaration(statement));
  const at = imports.length > 0 ? imports[imports.length - 1].getEnd() + 1 : 0;
  return `${text.slice(0, at)}import { expectStatus } from '${from}';\n${text.slice(at)}`;
}

for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  const edits = statusChecks(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  if (edits.length === 0) continue;
  let rewritten = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end);
  fs.writeFileSync(file, withImport(file, rewritten));
  console.log(`${file}: ${edits.length} status check(s) rewritten`);
}
