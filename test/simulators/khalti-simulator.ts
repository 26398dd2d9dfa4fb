import express from 'express';
import { page, randomId, startSimulatorServer, type SimulatorServer } from './simulator-server';

/**
 * A loopback simulation of Khalti ePayment (KPG-2) as docs.khalti.com documents it:
 * - POST /api/v2/epayment/initiate/ (Authorization: Key <secret>; amount in paisa, at least 1000,
 *   optional customer_info { name, email, phone }) -> { pidx, payment_url, expires_at, expires_in };
 *   the link lives 60 minutes: an `Initiated` payment not paid by then is `Expired`;
 * - POST /api/v2/epayment/lookup/ { pidx } -> { pidx, total_amount, status, transaction_id, fee,
 *   refunded }: `transaction_id` null until the payment completes, `refunded` true once any of its
 *   money went back (through the API or the merchant portal), HTTP 400 with the same body for
 *   `Expired` and `User canceled`, a partial refund spelt `partialSpelling` (Khalti's documents
 *   write both "Partially Refunded" and "Partially refunded"); a pidx of another merchant
 *   (another key) is 404 { detail: "Not found.", error_key: "validation_error" };
 * - GET /api/v2/merchant-transaction/{transaction_id}/ (docs.khalti.com/api/transaction_details)
 *   -> { idx, type: { name }, state: { name }, amount, fee_amount, refunded, ebanker, user }: type
 *   "Wallet payment" and no ebanker for a wallet payment, "Ebanking payment" with its bank for a
 *   bank-funded one;
 * - the hosted page GET/POST /?pidx=... (test Khalti IDs 9800000000-9800000005, MPIN 1111,
 *   OTP 987654; `via` wallet or ebanking), which returns the browser to return_url with pidx,
 *   txnId, amount, total_amount, status, mobile, tidx, purchase_order_id, purchase_order_name and
 *   transaction_id.
 * - POST /api/merchant-transaction/{transaction_id}/refund/ (docs.khalti.com/api/refund): no
 *   body for a full refund, `amount` in paisa for a partial one, and for a bank-funded payment
 *   `mobile`, the payer's Khalti account, always -> 200 { detail: "Transaction refund successful." };
 *   the payment then looks up `Refunded` or a partial refund. Errors: 401 bad key, 404 unknown
 *   transaction (or another merchant's), 400 { mobile: [...], error_key: "validation_error" }
 *   for a bank refund without the payer's mobile, 400 { detail, error_key } when the payment is
 *   not completed, already refunded in full, or the amount is not a positive integer within what
 *   is left to refund.
 * Simulator conventions: Khalti ID 9800000005 leaves the payment Pending (it completes when a
 * test calls settle); tests set any other state (Expired, Refunded, ...) with setStatus, a
 * payment that Khalti decides late with completeAfterLookups, and a refund made in Khalti's
 * merchant portal (not through its API) with refundInPortal.
 */
export type KhaltiStatus =
  'Initiated' | 'Pending' | 'Completed' | 'Expired' | 'User canceled' | 'Refunded' | 'Partially Refunded' | 'Failed';

export interface KhaltiPayment {
  pidx: string;
  merchantKey: string;
  amount: number;
  purchaseOrderId: string;
  purchaseOrderName: string;
  returnUrl: string;
  status: KhaltiStatus;
  transactionId: string | null;
  /** Lookups still to answer Pending before the payment completes (completeAfterLookups). */
  pendingLookups?: number;
  /** Lookups answered for this pidx. */
  lookups: number;
  /** Paisa given back so far (the refund API, or the merchant portal). */
  refunded: number;
  /** How the customer paid: from a Khalti wallet, or from a bank account (e-banking, mobile banking, connectIPS, card). */
  funding: 'wallet' | 'bank';
  /** The Khalti account that paid (the Khalti ID given on the page), once paid. */
  payerMobile: string | null;
  /** customer_info.phone of the initiation, if any. */
  customerPhone: string | null;
  /** When the payment link stops working (epoch ms): an `Initiated` payment is `Expired` after it. */
  expiresAt: number;
}

/** Khalti's payment link lifetime. */
export const KHALTI_LINK_SECONDS = 3600;

export const KHALTI_TEST = {
  ids: ['9800000000', '9800000001', '9800000002', '9800000003', '9800000004', '9800000005'],
  mpin: '1111',
  otp: '987654',
  pendingId: '9800000005',
};

export interface KhaltiSimulator extends SimulatorServer {
  apiBase: string;
  secretKey: string;
  /** A second merchant's key: its payments are unknown to ours. */
  otherMerchantKey: string;
  payments: Map<string, KhaltiPayment>;
  byOrder(purchaseOrderId: string): KhaltiPayment;
  setStatus(pidx: string, status: KhaltiStatus): void;
  /** Khalti decides late: the next `lookups` lookups answer Pending, the one after Completed. */
  completeAfterLookups(pidx: string, lookups: number): void;
  /** A refund made in Khalti's merchant portal (what is left, half of it, or so many paisa): the lookup answers Refunded (refunded: true) or Partially Refunded. */
  refundInPortal(pidx: string, kind: 'full' | 'partial' | number): void;
  /** The payment link's 60 minutes are over (as if the clock had moved). */
  expireLink(pidx: string): void;
  /** How lookups spell a partial refund; Khalti's documents write both. */
  partialSpelling: 'Partially Refunded' | 'Partially refunded';
  refunds: KhaltiRefundState;
  /** Seeded random faults on the API (off until a test sets them): see KhaltiFaults. */
  faults: KhaltiFaults;
}

/**
 * Seeded random faults of Khalti's API, for the refund fault run: each API call draws from a
 * PRNG (mulberry32 of `seed`) whether it is answered 5xx before anything happens (`errorRate`),
 * has its answer dropped (`dropRate`: the connection is destroyed) or times out (`timeoutRate`:
 * never answered, the caller's timeout ends it). A refund call that drops or times out is made
 * first (the money goes back; only its answer is lost), the unkind case. The draws are
 * deterministic per seed; which call gets which draw follows the order calls arrive in.
 */
export interface KhaltiFaults {
  seed: number | null;
  errorRate: number;
  dropRate: number;
  timeoutRate: number;
  /** Calls that got each fault, by kind. */
  injected: { error: number; drop: number; timeout: number };
  /** Of those, refund calls made whose answer was lost (dropped or timed out). */
  lostRefundAnswers: number;
  /** Turns the faults on with a seed and rates (all 0 turns them off). */
  configure(settings: { seed: number; errorRate: number; dropRate: number; timeoutRate: number }): void;
  /** Refunds made through the API, by transaction id: each one's paisa. */
  madeByTransaction: Map<string, number[]>;
  /** Refunds made in the merchant portal, by transaction id: each one's paisa. */
  portalByTransaction: Map<string, number[]>;
}

type Fault = 'error' | 'drop' | 'timeout';

/** mulberry32: a small seeded PRNG, deterministic per seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface KhaltiRefundState {
  /** Refund API calls received (every one, refused or not). */
  calls: number;
  /** The same, by transaction id. */
  callsByTransaction: Map<string, number>;
  /** The next this-many refunds are made, then their answer is lost (the connection drops): a timeout after success. */
  dropAnswers: number;
  /** Milliseconds between making a refund and answering it (a slow provider; the refund is already made). */
  delayMs: number;
}

export async function startKhaltiSimulator(): Promise<KhaltiSimulator> {
  const secretKey = `live_secret_key_${randomId(32)}`;
  const otherMerchantKey = `live_secret_key_${randomId(32)}`;
  const payments = new Map<string, KhaltiPayment>();
  const keyOf = (header: string | undefined) => {
    const key = /^Key (\S+)$/.exec(header ?? '')?.[1];
    return key === secretKey || key === otherMerchantKey ? key : undefined;
  };
  const refunds: KhaltiRefundState = { calls: 0, callsByTransaction: new Map(), dropAnswers: 0, delayMs: 0 };
  let draw: (() => number) | null = null;
  const faults: KhaltiFaults = {
    seed: null,
    errorRate: 0,
    dropRate: 0,
    timeoutRate: 0,
    injected: { error: 0, drop: 0, timeout: 0 },
    lostRefundAnswers: 0,
    configure(settings) {
      Object.assign(faults, settings);
      draw = settings.errorRate + settings.dropRate + settings.timeoutRate > 0 ? seededRandom(settings.seed) : null;
    },
    madeByTransaction: new Map(),
    portalByTransaction: new Map(),
  };
  const drawFault = (): Fault | null => {
    if (!draw) return null;
    const roll = draw();
    const fault: Fault | null =
      roll < faults.errorRate
        ? 'error'
        : roll < faults.errorRate + faults.dropRate
          ? 'drop'
          : roll < faults.errorRate + faults.dropRate + faults.timeoutRate
            ? 'timeout'
            : null;
    if (fault) faults.injected[fault] += 1;
    return fault;
  };
  const remember = (book: Map<string, number[]>, transactionId: string, amount: number) =>
    book.set(transactionId, [...(book.get(transactionId) ?? []), amount]);
  const server = await startSimulatorServer(['/api/v2', '/api/merchant-transaction'], (app) => {
    app.use(express.json());
    app.use(express.urlencoded({ extended: false }));
    app.use(['/api/v2', '/api/merchant-transaction'], (req, res, next) => {
      const fault = drawFault();
      if (fault === 'error') return res.status(502).type('html').send('<html><body>502 Bad Gateway</body></html>');
      // A refund call is made first, then its answer is lost: the route reads the fault.
      if (fault && req.method === 'POST' && /\/refund\/?$/.test(req.path)) {
        res.locals.fault = fault;
        return next();
      }
      if (fault === 'drop') return req.socket.destroy();
      if (fault === 'timeout') return;
      next();
    });

    app.post('/api/v2/epayment/initiate/', (req, res) => {
      const key = keyOf(req.headers.authorization);
      if (!key) return res.status(401).json({ detail: 'Invalid token.', status_code: 401 });
      const {
        amount,
        purchase_order_id: orderId,
        purchase_order_name: orderName,
        return_url: returnUrl,
        website_url: websiteUrl,
        customer_info: customer,
      } = req.body ?? {};
      const errors: Record<string, string[]> = {};
      if (
        customer !== undefined &&
        (typeof customer !== 'object' ||
          customer === null ||
          (customer.phone !== undefined && typeof customer.phone !== 'string'))
      )
        errors.customer_info = ['Enter a valid customer info.'];
      if (!Number.isInteger(amount) || amount < 1000)
        errors.amount = ['Amount should be greater than Rs. 10, that is 1000 paisa.'];
      for (const [field, value] of Object.entries({
        purchase_order_id: orderId,
        purchase_order_name: orderName,
        return_url: returnUrl,
        website_url: websiteUrl,
      })) {
        if (typeof value !== 'string' || value === '') errors[field] = ['This field is required.'];
      }
      if (Object.keys(errors).length > 0) return res.status(400).json({ ...errors, error_key: 'validation_error' });
      const pidx = randomId(22);
      const expiresAt = Date.now() + KHALTI_LINK_SECONDS * 1000;
      const customerPhone = typeof customer?.phone === 'string' ? customer.phone : null;
      payments.set(pidx, {
        pidx,
        merchantKey: key,
        amount,
        purchaseOrderId: orderId,
        purchaseOrderName: orderName,
        returnUrl,
        status: 'Initiated',
        transactionId: null,
        lookups: 0,
        refunded: 0,
        funding: 'wallet',
        payerMobile: null,
        customerPhone,
        expiresAt,
      });
      res.json({
        pidx,
        payment_url: `${server.url}/?pidx=${pidx}`,
        expires_at: new Date(expiresAt).toISOString(),
        expires_in: KHALTI_LINK_SECONDS,
      });
    });

    app.post('/api/v2/epayment/lookup/', (req, res) => {
      const key = keyOf(req.headers.authorization);
      if (!key) return res.status(401).json({ detail: 'Invalid token.', status_code: 401 });
      const payment = payments.get(String(req.body?.pidx ?? ''));
      if (!payment || payment.merchantKey !== key)
        return res.status(404).json({ detail: 'Not found.', error_key: 'validation_error' });
      payment.lookups += 1;
      expireIfDue(payment);
      if (payment.pendingLookups !== undefined) {
        if (payment.pendingLookups === 0) {
          payment.pendingLookups = undefined;
          payment.status = 'Completed';
          payment.transactionId ??= randomId(22);
        } else {
          payment.pendingLookups -= 1;
        }
      }
      const settled = payment.status !== 'Initiated' && payment.status !== 'Pending';
      // Khalti answers its final failures with 400 and the same body.
      const httpStatus = payment.status === 'Expired' || payment.status === 'User canceled' ? 400 : 200;
      res.status(httpStatus).json({
        pidx: payment.pidx,
        total_amount: payment.amount,
        status: payment.status === 'Partially Refunded' ? simulator.partialSpelling : payment.status,
        transaction_id: settled ? payment.transactionId : null,
        fee: 0,
        refunded: payment.refunded > 0,
      });
    });

    app.get('/api/v2/merchant-transaction/:transactionId/', (req, res) => {
      const key = keyOf(req.headers.authorization);
      if (!key) return res.status(401).json({ detail: 'Invalid token.', status_code: 401 });
      const payment = [...payments.values()].find(
        (candidate) =>
          candidate.transactionId === req.params.transactionId &&
          candidate.status !== 'Initiated' &&
          candidate.status !== 'Pending',
      );
      if (!payment || payment.merchantKey !== key) return res.status(404).json({ detail: 'Not found.' });
      const bank = payment.funding === 'bank';
      res.json({
        idx: payment.transactionId,
        type: { idx: bank ? 'EbnkTypeIdx' : 'WaltTypeIdx', name: bank ? 'Ebanking payment' : 'Wallet payment' },
        state: {
          idx: 'StateIdx',
          name: payment.status === 'Partially Refunded' ? simulator.partialSpelling : payment.status,
          template: 'is complete',
        },
        amount: payment.amount,
        fee_amount: 0,
        created_on: new Date().toISOString(),
        can_refund: payment.status === 'Completed' || payment.status === 'Partially Refunded',
        refunded: payment.refunded > 0,
        ebanker: bank ? { idx: 'BankIdx', name: 'Nabil Bank Limited', short_name: 'NABIL' } : null,
        user: { idx: 'UserIdx', name: 'Test User', mobile: maskMobile(payment.payerMobile ?? '') },
      });
    });

    app.post('/api/merchant-transaction/:transactionId/refund/', (req, res) => {
      const transactionId = req.params.transactionId;
      refunds.calls += 1;
      refunds.callsByTransaction.set(transactionId, (refunds.callsByTransaction.get(transactionId) ?? 0) + 1);
      const key = keyOf(req.headers.authorization);
      if (!key) return res.status(401).json({ detail: 'Invalid token.', status_code: 401 });
      const payment = [...payments.values()].find((candidate) => candidate.transactionId === transactionId);
      if (!payment || payment.merchantKey !== key) return res.status(404).json({ detail: 'Transaction not found.' });
      if (payment.status === 'Refunded')
        return res.status(400).json({ detail: 'Transaction already refunded.', error_key: 'validation_error' });
      if (payment.status !== 'Completed' && payment.status !== 'Partially Refunded')
        return res
          .status(400)
          .json({ detail: 'Only completed transactions can be refunded.', error_key: 'validation_error' });
      if (payment.funding === 'bank') {
        const mobile = req.body?.mobile;
        if (mobile === undefined || mobile === '')
          return res.status(400).json({ mobile: ['This field is required.'], error_key: 'validation_error' });
        if (mobile !== payment.payerMobile)
          return res.status(400).json({
            mobile: ['Mobile number is not associated with this transaction.'],
            error_key: 'validation_error',
          });
      }
      const left = payment.amount - payment.refunded;
      const asked = req.body?.amount;
      if (asked !== undefined && (!Number.isInteger(asked) || asked <= 0 || asked > left)) {
        return res.status(400).json({
          detail: `Refund amount must be a positive amount in paisa of at most ${left}.`,
          error_key: 'validation_error',
        });
      }
      payment.refunded += asked === undefined ? left : asked;
      payment.status = payment.refunded >= payment.amount ? 'Refunded' : 'Partially Refunded';
      remember(faults.madeByTransaction, transactionId, asked === undefined ? left : asked);
      if (res.locals.fault === 'drop' || res.locals.fault === 'timeout') faults.lostRefundAnswers += 1;
      if (res.locals.fault === 'drop') return req.socket.destroy();
      if (res.locals.fault === 'timeout') return;
      if (refunds.dropAnswers > 0) {
        refunds.dropAnswers -= 1;
        req.socket.destroy();
        return;
      }
      setTimeout(() => res.json({ detail: 'Transaction refund successful.' }), refunds.delayMs);
    });

    app.get('/', (req, res) => {
      const payment = payments.get(typeof req.query.pidx === 'string' ? req.query.pidx : '');
      if (!payment) return res.status(404).type('html').send(page('Payment not found', ''));
      expireIfDue(payment);
      if (payment.status !== 'Initiated')
        return res
          .status(410)
          .type('html')
          .send(page('This payment link is no longer valid', `<p id="status">${payment.status}</p>`));
      res.type('html').send(
        page(
          `Pay Rs. ${(payment.amount / 100).toFixed(2)} to the merchant`,
          `<form method="post">
<label>Pay from <select name="via"><option value="wallet">Khalti wallet</option><option value="ebanking">E-banking</option></select></label><label>Khalti ID <input name="mobile"></label><label>MPIN <input name="mpin" type="password"></label><label>OTP <input name="otp"></label>
<button name="action" value="pay">Pay</button><button name="action" value="cancel">Cancel</button></form>`,
        ),
      );
    });

    app.post('/', (req, res) => {
      const payment = payments.get(typeof req.query.pidx === 'string' ? req.query.pidx : '');
      if (payment) expireIfDue(payment);
      if (!payment || payment.status !== 'Initiated')
        return res.status(410).type('html').send(page('This payment link is no longer valid', ''));
      const { action, mobile, mpin, otp, via } = req.body ?? {};
      if (action === 'cancel') {
        payment.status = 'User canceled';
      } else if (KHALTI_TEST.ids.includes(mobile) && mpin === KHALTI_TEST.mpin && otp === KHALTI_TEST.otp) {
        payment.transactionId = randomId(22);
        payment.status = mobile === KHALTI_TEST.pendingId ? 'Pending' : 'Completed';
        payment.funding = via === 'ebanking' ? 'bank' : 'wallet';
        payment.payerMobile = String(mobile);
      } else {
        return res.status(422).type('html').send(page('Invalid Khalti ID, MPIN or OTP', ''));
      }
      const back = new URL(payment.returnUrl);
      const params: Record<string, string> = {
        pidx: payment.pidx,
        txnId: payment.transactionId ?? '',
        amount: String(payment.amount),
        total_amount: String(payment.amount),
        status: payment.status,
        mobile: payment.status === 'User canceled' ? '' : maskMobile(String(mobile)),
        tidx: payment.transactionId ?? '',
        purchase_order_id: payment.purchaseOrderId,
        purchase_order_name: payment.purchaseOrderName,
        transaction_id: payment.transactionId ?? '',
      };
      for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value);
      res.redirect(302, back.toString());
    });
  });
  const simulator: KhaltiSimulator = Object.assign(server, {
    partialSpelling: 'Partially refunded' as const,
    apiBase: `${server.url}/api/v2`,
    secretKey,
    otherMerchantKey,
    payments,
    byOrder(purchaseOrderId: string): KhaltiPayment {
      const found = [...payments.values()].find((payment) => payment.purchaseOrderId === purchaseOrderId);
      if (!found) throw new Error(`Khalti simulator has no payment for ${purchaseOrderId}`);
      return found;
    },
    setStatus(pidx: string, status: KhaltiStatus): void {
      const payment = payments.get(pidx);
      if (!payment) throw new Error(`Khalti simulator has no pidx ${pidx}`);
      payment.status = status;
      if (
        (status === 'Completed' || status === 'Refunded' || status === 'Partially Refunded') &&
        !payment.transactionId
      )
        payment.transactionId = randomId(22);
      if (status === 'Refunded') payment.refunded = payment.amount;
    },
    completeAfterLookups(pidx: string, lookups: number): void {
      const payment = payments.get(pidx);
      if (!payment) throw new Error(`Khalti simulator has no pidx ${pidx}`);
      payment.status = 'Pending';
      payment.transactionId ??= randomId(22);
      payment.pendingLookups = lookups;
    },
    refundInPortal(pidx: string, kind: 'full' | 'partial' | number): void {
      const payment = payments.get(pidx);
      if (payment?.status !== 'Completed' && payment?.status !== 'Partially Refunded')
        throw new Error(`Khalti simulator: ${pidx} is not a completed payment`);
      const left = payment.amount - payment.refunded;
      const amount = kind === 'full' ? left : kind === 'partial' ? Math.floor(left / 2) : kind;
      if (!Number.isInteger(amount) || amount <= 0 || amount > left)
        throw new Error(`Khalti simulator: cannot refund ${amount} of ${pidx} (${left} left)`);
      payment.refunded += amount;
      payment.status = payment.refunded >= payment.amount ? 'Refunded' : 'Partially Refunded';
      if (payment.transactionId) remember(faults.portalByTransaction, payment.transactionId, amount);
    },
    expireLink(pidx: string): void {
      const payment = payments.get(pidx);
      if (!payment) throw new Error(`Khalti simulator has no pidx ${pidx}`);
      payment.expiresAt = Date.now() - 1;
    },
    refunds,
    faults,
  });
  return simulator;
}

/** An `Initiated` payment whose link is past its 60 minutes is `Expired`, as Khalti reports it. */
function expireIfDue(payment: KhaltiPayment): void {
  if (payment.status === 'Initiated' && Date.now() > payment.expiresAt) payment.status = 'Expired';
}

const maskMobile = (mobile: string) => (mobile ? `${mobile.slice(0, 2)}XXXXX${mobile.slice(-3)}` : '');
