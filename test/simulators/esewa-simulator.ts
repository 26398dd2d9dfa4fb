import { createHmac } from 'node:crypto';
import express from 'express';
import { page, randomId, startSimulatorServer, type SimulatorServer } from './simulator-server';

/**
 * A loopback simulation of eSewa ePay v2 as developer.esewa.com.np documents it:
 * - POST /api/epay/main/v2/form: the merchant's signed form (HMAC-SHA256, base64, over
 *   `signed_field_names`, usually total_amount,transaction_uuid,product_code); a bad signature
 *   or an unknown product_code is refused; otherwise eSewa's login page (test eSewa IDs
 *   9806800001-9806800005, password Nepal@123, token 123456) with Pay and Cancel;
 * - on Pay, a payment eSewa leaves PENDING ("initiated but not completed yet"; simulator
 *   convention: eSewa ID 9806800005) sends the browser to failure_url with nothing appended;
 *   otherwise the browser goes to success_url?data=<base64 JSON> signed by eSewa over
 *   transaction_code,status,total_amount,transaction_uuid,product_code,success_url,signed_field_names
 *   (total_amount written like eSewa does, with thousands separators: "4,500.0", or, with
 *   `numericAmounts`, as a JSON number the way eSewa's documentation shows it: `4500.0`); on Cancel, to
 *   failure_url with nothing appended;
 * - GET /api/epay/transaction/status/?product_code&total_amount&transaction_uuid -> { product_code,
 *   transaction_uuid, total_amount, status, ref_id }, status one of PENDING, COMPLETE,
 *   FULL_REFUND, PARTIAL_REFUND, AMBIGUOUS, NOT_FOUND, CANCELED; during an outage (`statusOutage`)
 *   eSewa's documented error object instead, `{ code: 0, error_message: "Service is currently
 *   unavailable" }`, with whatever HTTP status the test chose.
 */
export type EsewaStatus =
  'PENDING' | 'COMPLETE' | 'FULL_REFUND' | 'PARTIAL_REFUND' | 'AMBIGUOUS' | 'NOT_FOUND' | 'CANCELED';

export interface EsewaTransaction {
  productCode: string;
  transactionUuid: string;
  totalAmount: string;
  successUrl: string;
  failureUrl: string;
  status: EsewaStatus;
  refId: string | null;
  /** Status checks still to answer `status` before the transaction becomes COMPLETE (completeAfterChecks). */
  pendingChecks?: number;
}

export const ESEWA_TEST = {
  ids: ['9806800001', '9806800002', '9806800003', '9806800004', '9806800005'],
  password: 'Nepal@123',
  token: '123456',
  /** Simulator convention: paying with this eSewa ID leaves the payment PENDING and sends the customer to failure_url. */
  pendingId: '9806800005',
};

/** eSewa's documented answer of its status check while the service is down. */
export const ESEWA_OUTAGE_BODY = { code: 0, error_message: 'Service is currently unavailable' } as const;

export interface EsewaSimulator extends SimulatorServer {
  formUrl: string;
  statusUrl: string;
  productCode: string;
  secretKey: string;
  transactions: Map<string, EsewaTransaction>;
  /** Write `total_amount` in the success data as a JSON number (`4500.0`), signed as that text. */
  numericAmounts: boolean;
  /**
   * While set, every status check answers ESEWA_OUTAGE_BODY with this HTTP status (eSewa's
   * outage answer; 200 as readily as 503) and decides nothing; null (the default) answers normally.
   */
  statusOutage: number | null;
  /** Status-check calls received, per transaction_uuid. */
  statusCalls: Map<string, number>;
  byUuid(transactionUuid: string): EsewaTransaction;
  /**
   * eSewa decides late: the transaction reads `meanwhile` (PENDING or AMBIGUOUS) for the next
   * `checks` status checks, COMPLETE on the one after.
   */
  completeAfterChecks(transactionUuid: string, checks: number, meanwhile?: 'PENDING' | 'AMBIGUOUS'): void;
  /** A refund made by eSewa for the merchant after the payment: FULL_REFUND or PARTIAL_REFUND. */
  refundAtEsewa(transactionUuid: string, kind: 'full' | 'partial'): void;
  /** eSewa reverses a completed payment on its side: the status check answers CANCELED ("Canceled/Reversed from eSewa side"). */
  reverseAtEsewa(transactionUuid: string): void;
  /** eSewa's signature over `fields`, for tests that forge or tamper with a return. */
  sign(fields: Record<string, string>, signedFieldNames: string, secret?: string): string;
}

const RESPONSE_SIGNED_FIELDS =
  'transaction_code,status,total_amount,transaction_uuid,product_code,success_url,signed_field_names';

export function signEsewa(fields: Record<string, string>, signedFieldNames: string, secret: string): string {
  const message = signedFieldNames
    .split(',')
    .map((name) => `${name}=${fields[name] ?? ''}`)
    .join(',');
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}

/** "4500.00" -> "4,500.0", the way eSewa writes amounts back. */
export function esewaStyleAmount(decimal: string): string {
  const [units = '', fraction = '0'] = decimal.split('.');
  return `${units.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction.replace(/0+$/, '') || '0'}`;
}

export async function startEsewaSimulator(): Promise<EsewaSimulator> {
  const productCode = `EPAY${randomId(6).toUpperCase()}`;
  const secretKey = randomId(24);
  const merchants = new Map([[productCode, secretKey]]);
  const transactions = new Map<string, EsewaTransaction>();
  const sessions = new Map<string, string>();
  const statusCalls = new Map<string, number>();
  const keyOf = (code: string, uuid: string) => `${code}:${uuid}`;

  const server = await startSimulatorServer('/api/epay/transaction', (app) => {
    app.use(express.urlencoded({ extended: false }));

    app.post('/api/epay/main/v2/form', (req, res) => {
      const fields: Record<string, string> = Object.fromEntries(
        Object.entries(req.body ?? {}).map(([k, v]) => [k, String(v)]),
      );
      const secret = merchants.get(fields.product_code ?? '');
      const required = [
        'amount',
        'tax_amount',
        'total_amount',
        'transaction_uuid',
        'product_code',
        'product_service_charge',
        'product_delivery_charge',
        'success_url',
        'failure_url',
        'signed_field_names',
        'signature',
      ];
      if (!secret || required.some((name) => !fields[name]))
        return res.status(400).type('html').send(page('Invalid payload', ''));
      // Every required field is there now; the fallback only tells the compiler so.
      const field = (name: string) => fields[name] ?? '';
      if (signEsewa(fields, field('signed_field_names'), secret) !== fields.signature)
        return res.status(400).type('html').send(page('Invalid payload signature', ''));
      if (!/^[A-Za-z0-9-]+$/.test(field('transaction_uuid')))
        return res.status(400).type('html').send(page('Invalid transaction_uuid', ''));
      const key = keyOf(field('product_code'), field('transaction_uuid'));
      const existing = transactions.get(key);
      if (existing && existing.status !== 'PENDING')
        return res.status(409).type('html').send(page('Duplicate transaction', ''));
      transactions.set(key, {
        productCode: field('product_code'),
        transactionUuid: field('transaction_uuid'),
        totalAmount: field('total_amount'),
        successUrl: field('success_url'),
        failureUrl: field('failure_url'),
        status: 'PENDING',
        refId: null,
      });
      const session = randomId(16);
      sessions.set(session, key);
      res.type('html').send(
        page(
          `eSewa: pay NPR ${fields.total_amount}`,
          `<form method="post" action="/api/epay/main/v2/form/confirm">
<input type="hidden" name="session" value="${session}"><label>eSewa ID <input name="esewaId"></label><label>Password <input name="password" type="password"></label><label>Token <input name="token"></label>
<button name="action" value="pay">Pay</button><button name="action" value="cancel">Cancel</button></form>`,
        ),
      );
    });

    app.post('/api/epay/main/v2/form/confirm', (req, res) => {
      const transaction = transactions.get(sessions.get(String(req.body?.session ?? '')) ?? '');
      if (!transaction || transaction.status !== 'PENDING')
        return res.status(410).type('html').send(page('Session expired', ''));
      const { action, esewaId, password, token } = req.body ?? {};
      if (action === 'cancel') {
        transaction.status = 'CANCELED';
        return res.redirect(302, transaction.failureUrl);
      }
      if (!ESEWA_TEST.ids.includes(esewaId) || password !== ESEWA_TEST.password || token !== ESEWA_TEST.token) {
        return res.status(422).type('html').send(page('Invalid eSewa ID, password or token', ''));
      }
      if (esewaId === ESEWA_TEST.pendingId) return res.redirect(302, transaction.failureUrl); // stays PENDING
      transaction.status = 'COMPLETE';
      transaction.refId = randomId(7).toUpperCase();
      const data: Record<string, string> = {
        transaction_code: transaction.refId,
        status: 'COMPLETE',
        total_amount: simulator.numericAmounts
          ? esewaStyleAmount(transaction.totalAmount).replace(/,/g, '')
          : esewaStyleAmount(transaction.totalAmount),
        transaction_uuid: transaction.transactionUuid,
        product_code: transaction.productCode,
        success_url: transaction.successUrl,
        signed_field_names: RESPONSE_SIGNED_FIELDS,
      };
      data.signature = signEsewa(data, RESPONSE_SIGNED_FIELDS, merchants.get(transaction.productCode) ?? '');
      const back = new URL(transaction.successUrl);
      // A number is written as eSewa writes it ("4500.0"), which JSON.stringify of a number cannot.
      const json = simulator.numericAmounts
        ? JSON.stringify(data).replace(/"total_amount":"([\d.]+)"/, '"total_amount":$1')
        : JSON.stringify(data);
      back.searchParams.set('data', Buffer.from(json, 'utf8').toString('base64'));
      res.redirect(302, back.toString());
    });

    app.get('/api/epay/transaction/status/', (req, res) => {
      const { product_code: code, total_amount: total, transaction_uuid: uuid } = req.query;
      if (typeof uuid === 'string') statusCalls.set(uuid, (statusCalls.get(uuid) ?? 0) + 1);
      if (simulator.statusOutage !== null) return res.status(simulator.statusOutage).json(ESEWA_OUTAGE_BODY);
      if (typeof code !== 'string' || typeof total !== 'string' || typeof uuid !== 'string')
        return res.status(400).json({ code: 0, error_message: 'Invalid request' });
      const transaction = transactions.get(keyOf(code, uuid));
      // eSewa matches the amount too: another amount is another (unknown) transaction.
      if (!transaction || Number(transaction.totalAmount) !== Number(total)) {
        return res.json({
          product_code: code,
          transaction_uuid: uuid,
          total_amount: Number(total),
          status: 'NOT_FOUND',
          ref_id: null,
        });
      }
      if (transaction.pendingChecks !== undefined) {
        if (transaction.pendingChecks === 0) {
          transaction.pendingChecks = undefined;
          transaction.status = 'COMPLETE';
          transaction.refId ??= randomId(7).toUpperCase();
        } else {
          transaction.pendingChecks -= 1;
        }
      }
      res.json({
        product_code: code,
        transaction_uuid: uuid,
        total_amount: Number(transaction.totalAmount),
        status: transaction.status,
        ref_id: transaction.refId,
      });
    });
  });
  // Read by the handlers above at request time, so a test can switch the amount format on the running simulator.
  const simulator: EsewaSimulator = Object.assign(server, {
    numericAmounts: false,
    statusOutage: null,
    statusCalls,
    formUrl: `${server.url}/api/epay/main/v2/form`,
    statusUrl: `${server.url}/api/epay/transaction/status/`,
    productCode,
    secretKey,
    transactions,
    byUuid(transactionUuid: string): EsewaTransaction {
      const found = transactions.get(keyOf(productCode, transactionUuid));
      if (!found) throw new Error(`eSewa simulator has no transaction ${transactionUuid}`);
      return found;
    },
    sign: (fields: Record<string, string>, signedFieldNames: string, secret = secretKey) =>
      signEsewa(fields, signedFieldNames, secret),
    completeAfterChecks(transactionUuid: string, checks: number, meanwhile: 'PENDING' | 'AMBIGUOUS' = 'PENDING'): void {
      const transaction = simulator.byUuid(transactionUuid);
      transaction.status = meanwhile;
      transaction.pendingChecks = checks;
    },
    refundAtEsewa(transactionUuid: string, kind: 'full' | 'partial'): void {
      const transaction = simulator.byUuid(transactionUuid);
      if (transaction.status !== 'COMPLETE' && transaction.status !== 'PARTIAL_REFUND')
        throw new Error(`eSewa simulator: ${transactionUuid} is not a completed transaction`);
      transaction.status = kind === 'full' ? 'FULL_REFUND' : 'PARTIAL_REFUND';
    },
    reverseAtEsewa(transactionUuid: string): void {
      const transaction = simulator.byUuid(transactionUuid);
      if (transaction.status !== 'COMPLETE')
        throw new Error(`eSewa simulator: ${transactionUuid} is not a completed transaction`);
      transaction.status = 'CANCELED';
    },
  });
  return simulator;
}
