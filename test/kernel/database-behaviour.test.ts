import fs from 'node:fs';
import path from 'node:path';
import { useTestServer } from '../support/test-server';

/**
 * docs/database-behaviour.md is the map of what the database does on its own (decision record
 * 0105): every trigger the migrations leave in the database is a row of its table, and every row
 * is a trigger the database has. A migration that adds or drops one fails here until the page
 * says so.
 */
const { server } = useTestServer();
const PAGE = path.resolve(__dirname, '../../docs/database-behaviour.md');

/** The trigger names of the page's "Triggers" table: the backticked names of each row's first cell. */
function triggersOnThePage(): string[] {
  const text = fs.readFileSync(PAGE, 'utf8');
  const section = text.slice(text.indexOf('## Triggers'), text.indexOf('\n## ', text.indexOf('## Triggers') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? ''));
}

it('names every trigger of the migrated database, and no other', async () => {
  const rows = await server.orm.em.getConnection().execute<{ name: string }[]>(
    `select distinct t.tgname as name from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
      where not t.tgisinternal and n.nspname = current_schema()`,
  );
  const inDatabase = rows.map((row) => row.name).sort();
  expect(inDatabase.length).toBeGreaterThan(20);
  expect(triggersOnThePage().sort()).toEqual(inDatabase);
});
