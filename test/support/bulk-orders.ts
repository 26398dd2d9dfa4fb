import type { RunningServer } from '../../src/server';

/**
 * `count` copies of one order, written straight into the table (references suffixed `-<n>`), so a
 * test can give a company an order book too large for socket buffers without placing thousands
 * of orders through the API. `customRouteNameLength` makes each copy's custom route name that long
 * (the API caps it far lower; here it only makes each CSV row heavy).
 */
export async function copyOrder(
  server: Pick<RunningServer, 'orm'>,
  orderId: string,
  count: number,
  { customRouteNameLength }: { customRouteNameLength?: number } = {},
): Promise<void> {
  const copied: Record<string, string> = {
    order_ref: `order_ref || '-' || n`,
    order_number: `order_number || '-' || n`,
  };
  if (customRouteNameLength)
    copied.custom_route_name = `rpad(coalesce(custom_route_name, 'route'), ${Math.trunc(customRouteNameLength)}, ' and back')`;
  await copyRow(server, 'insurance_order', orderId, count, copied);
}

/**
 * `count` copies of one row of `table`, each with a new `id` and the columns of `copied` set to
 * their SQL expressions (`n` is the copy's number, 1 to `count`): a company's export made larger
 * than socket buffers in one statement.
 */
export async function copyRow(
  server: Pick<RunningServer, 'orm'>,
  table: string,
  id: string,
  count: number,
  copied: Record<string, string> = {},
): Promise<void> {
  const connection = server.orm.em.getConnection();
  const columns = (
    await connection.execute<Array<{ column_name: string }>>(
      `select column_name from information_schema.columns where table_name = ? and table_schema = current_schema() order by ordinal_position`,
      [table],
    )
  ).map((row) => row.column_name);
  const expressions: Record<string, string> = { id: 'gen_random_uuid()', ...copied };
  const values = columns.map((column) => expressions[column] ?? `"${column}"`);
  await connection.execute(
    `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) select ${values.join(', ')} from "${table}", generate_series(1, ?) n where id = ?`,
    [count, id],
  );
}
