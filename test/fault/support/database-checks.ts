import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { Acknowledged } from './booking-load';

const CHECKER = path.resolve(__dirname, '../../../scripts/check-invariants.mjs');
const run = promisify(execFile);

export interface InvariantReport {
  code: number;
  output: string;
  violations: number;
}

/** scripts/check-invariants.mjs on the run's database (with DATA_DIR: document bytes too). */
export async function checkInvariants(databaseUrl: string, dataDir?: string): Promise<InvariantReport> {
  const env = { PATH: process.env.PATH, DATABASE_URL: databaseUrl, ...(dataDir ? { DATA_DIR: dataDir } : {}) };
  let code = 0;
  let output: string;
  try {
    output = (await run(process.execPath, [CHECKER], { env })).stdout;
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    code = failed.code;
    output = `${failed.stdout}${failed.stderr}`;
  }
  const match = /invariants: (\d+) violations?/.exec(output);
  return { code, output, violations: match ? Number(match[1]) : -1 };
}

export interface LostWrites {
  checked: number;
  lost: string[];
}

/**
 * Every write the service acknowledged must be in the database in the acknowledged state:
 * created orders exist (PAID ones are PAID), started attempts exist for their order, attempts
 * whose success callback was acknowledged are SUCCESS.
 */
export async function findLostWrites(databaseUrl: string, acknowledged: Acknowledged): Promise<LostWrites> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const orders = await client.query<{ order_ref: string; status: string }>(
      'select order_ref, status from insurance_order where order_ref = any($1)',
      [[...acknowledged.orders.keys()]],
    );
    const attempts = await client.query<{ payment_ref: string; status: string; order_ref: string }>(
      `select a.payment_ref, a.status, o.order_ref
         from payment_attempt a join payment_attempt_order pao on pao.attempt_id = a.id join insurance_order o on o.id = pao.order_id
        where a.payment_ref = any($1)`,
      [[...acknowledged.payments.keys()]],
    );
    const orderStatus = new Map(orders.rows.map((row) => [row.order_ref, row.status]));
    const attemptOf = new Map(attempts.rows.map((row) => [row.payment_ref, row]));
    const lost: string[] = [];
    for (const [orderRef, state] of acknowledged.orders) {
      const status = orderStatus.get(orderRef);
      if (!status) lost.push(`order ${orderRef} missing`);
      else if (state === 'PAID' && status !== 'PAID') lost.push(`order ${orderRef} acknowledged PAID, is ${status}`);
    }
    for (const [paymentRef, orderRef] of acknowledged.payments) {
      const attempt = attemptOf.get(paymentRef);
      if (!attempt) lost.push(`payment ${paymentRef} missing`);
      else if (attempt.order_ref !== orderRef)
        lost.push(`payment ${paymentRef} belongs to ${attempt.order_ref}, acknowledged for ${orderRef}`);
      else if (acknowledged.successes.has(paymentRef) && attempt.status !== 'SUCCESS')
        lost.push(`payment ${paymentRef} acknowledged SUCCESS, is ${attempt.status}`);
    }
    return { checked: acknowledged.orders.size + acknowledged.payments.size + acknowledged.successes.size, lost };
  } finally {
    await client.end();
  }
}
