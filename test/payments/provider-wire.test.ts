import { esewaSignature, esewaSignatureMatches } from '../../src/modules/payments/providers/esewa/esewa-signature';
import {
  abandonedCheckout,
  ESEWA_ABANDONED_AFTER_MS,
  minorFromEsewa,
  parseEsewaData,
  statusOutcome,
} from '../../src/modules/payments/providers/esewa/esewa-wire';
import { ESEWA_OUTAGE_BODY } from '../simulators/esewa-simulator';
import {
  lookupOutcome,
  returnProblem,
  transactionFunding,
} from '../../src/modules/payments/providers/khalti/khalti-wire';

const UAT_SECRET = '8gBm/:&EnhH.1/q';
const payment = {
  paymentRef: 'ORD-2026-000142-1789892411482',
  providerRef: 'bZQLD9wRVWo4CdESSfuSsB',
  amount: 450000,
  currency: 'NPR',
};
const now = new Date('2026-11-23T12:00:00Z');

describe('eSewa ePay v2 wire format', () => {
  it("signs like eSewa's documented example (total_amount=110, transaction_uuid=241028, EPAYTEST)", () => {
    expect(
      esewaSignature(
        { total_amount: '110', transaction_uuid: '241028', product_code: 'EPAYTEST' },
        'total_amount,transaction_uuid,product_code',
        UAT_SECRET,
      ),
    ).toBe('i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=');
  });

  it('accepts a returned signature only when it covers status, amount, reference and merchant', () => {
    const data = {
      transaction_code: '000AWEO',
      status: 'COMPLETE',
      total_amount: '4,500.0',
      transaction_uuid: payment.paymentRef,
      product_code: 'EPAYTEST',
      signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
    };
    expect(
      esewaSignatureMatches(
        { ...data, signature: esewaSignature(data, data.signed_field_names, UAT_SECRET) },
        UAT_SECRET,
      ),
    ).toBe(true);
    expect(
      esewaSignatureMatches(
        { ...data, signature: esewaSignature(data, data.signed_field_names, 'another key') },
        UAT_SECRET,
      ),
    ).toBe(false);
    const narrow = { ...data, signed_field_names: 'transaction_code,status' };
    expect(
      esewaSignatureMatches(
        { ...narrow, signature: esewaSignature(narrow, narrow.signed_field_names, UAT_SECRET) },
        UAT_SECRET,
      ),
    ).toBe(false);
  });

  it('verifies a total_amount sent as a JSON number (1000.0, as eSewa documents it) over the exact text sent, and reads it exactly', () => {
    const names = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';
    const signature = esewaSignature(
      {
        transaction_code: '000AWEO',
        status: 'COMPLETE',
        total_amount: '1000.0',
        transaction_uuid: '250610-162413',
        product_code: 'EPAYTEST',
        signed_field_names: names,
      },
      names,
      UAT_SECRET,
    );
    const text = `{"transaction_code":"000AWEO","status":"COMPLETE","total_amount":1000.0,"transaction_uuid":"250610-162413","product_code":"EPAYTEST","signed_field_names":"${names}","signature":"${signature}"}`;
    const fields = parseEsewaData(text) as Record<string, unknown>;
    expect(esewaSignatureMatches(fields, UAT_SECRET)).toBe(true);
    expect(minorFromEsewa(fields.total_amount)).toBe(100000);
    // Re-written by JavaScript the number would read "1000", which eSewa did not sign.
    expect(esewaSignatureMatches(JSON.parse(text) as Record<string, unknown>, UAT_SECRET)).toBe(false);
  });

  it('reads amounts as eSewa writes them into paisa, never through a float, and refuses what is not a charge', () => {
    expect(minorFromEsewa('4,500.0')).toBe(450000);
    expect(minorFromEsewa(100.5)).toBe(10050);
    expect(minorFromEsewa('17955.55')).toBe(1795555);
    for (const bad of ['1.005', '-1', 'abc', '', null, Number.NaN]) expect(minorFromEsewa(bad)).toBeUndefined();
  });

  it('maps status-check statuses: COMPLETE, CANCELED and FULL_REFUND are final; the rest are not', () => {
    const body = (status: string) => ({
      product_code: 'EPAYTEST',
      transaction_uuid: payment.paymentRef,
      total_amount: 4500.0,
      status,
      ref_id: '0001TS9',
    });
    expect(statusOutcome(body('COMPLETE'), payment, 'EPAYTEST', now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'SUCCESS', amount: 450000, gatewayTransactionId: '0001TS9' },
    });
    expect(statusOutcome(body('CANCELED'), payment, 'EPAYTEST', now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'CANCELLED' },
      reversal: 'FULL',
    });
    expect(statusOutcome(body('FULL_REFUND'), payment, 'EPAYTEST', now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'FAILED', reason: 'REFUNDED_BY_PROVIDER' },
      reversal: 'FULL',
    });
    expect(statusOutcome(body('PARTIAL_REFUND'), payment, 'EPAYTEST', now)).toEqual({
      kind: 'OPEN',
      status: 'PARTIAL_REFUND',
      warn: true,
      reversal: 'PARTIAL',
    });
    expect(statusOutcome(body('PENDING'), payment, 'EPAYTEST', now)).toEqual({
      kind: 'OPEN',
      status: 'PENDING',
      warn: false,
    });
    expect(statusOutcome(body('AMBIGUOUS'), payment, 'EPAYTEST', now)).toEqual({
      kind: 'OPEN',
      status: 'AMBIGUOUS',
      warn: true,
    });
    expect(statusOutcome(body('COMPLETE'), payment, 'OTHERCODE', now)).toMatchObject({ kind: 'UNREADABLE' });
  });

  it('reads eSewa\'s outage answer ({"code":0,"error_message":"Service is currently unavailable"}) as eSewa unavailable, never NOT_FOUND, even long after our form closed', () => {
    const closedLongAgo = { ...payment, expiresAt: new Date(now.getTime() - 2 * ESEWA_ABANDONED_AFTER_MS) };
    const outage = statusOutcome(ESEWA_OUTAGE_BODY, closedLongAgo, 'EPAYTEST', now);
    expect(outage).toEqual({
      kind: 'UNREADABLE',
      why: 'status check answered "Service is currently unavailable" instead of a status',
    });
    expect(abandonedCheckout(outage, closedLongAgo, now)).toEqual(outage);
    // NOT_FOUND itself, a status, is what ends an abandoned checkout.
    expect(
      abandonedCheckout(
        statusOutcome(
          { product_code: 'EPAYTEST', transaction_uuid: payment.paymentRef, total_amount: 4500, status: 'NOT_FOUND' },
          closedLongAgo,
          'EPAYTEST',
          now,
        ),
        closedLongAgo,
        now,
      ),
    ).toMatchObject({ kind: 'FINAL', report: { status: 'EXPIRED' } });
  });
});

describe('Khalti ePayment wire format', () => {
  it('maps lookup statuses, amounts in paisa as Khalti gives them', () => {
    const body = (status: string) => ({
      pidx: payment.providerRef,
      total_amount: 450000,
      status,
      transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe',
      fee: 0,
      refunded: false,
    });
    expect(lookupOutcome(body('Completed'), payment, now)).toMatchObject({
      kind: 'FINAL',
      report: {
        status: 'SUCCESS',
        amount: 450000,
        gatewayTransactionId: 'GFq9PFS7b2iYvL8Lir9oXe',
        paymentRef: payment.paymentRef,
      },
    });
    expect(lookupOutcome(body('User canceled'), payment, now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'CANCELLED' },
    });
    expect(lookupOutcome(body('Expired'), payment, now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'EXPIRED' },
    });
    expect(lookupOutcome(body('Refunded'), payment, now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'FAILED', reason: 'REFUNDED_BY_PROVIDER' },
      reversal: 'FULL',
    });
    // "Canceled, Expired, Failed must be treated as failed" (Khalti's KPG-2 document).
    expect(lookupOutcome({ ...body('Failed'), transaction_id: null }, payment, now)).toEqual({
      kind: 'FINAL',
      report: expect.objectContaining({ status: 'FAILED', reason: 'FAILED_AT_PROVIDER', amount: 450000 }),
    });
    expect(lookupOutcome(body('Pending'), payment, now)).toEqual({ kind: 'OPEN', status: 'Pending', warn: false });
    expect(lookupOutcome(body('Initiated'), payment, now)).toEqual({ kind: 'OPEN', status: 'Initiated', warn: false });
    expect(lookupOutcome(body('Partially Refunded'), payment, now)).toEqual({
      kind: 'OPEN',
      status: 'Partially Refunded',
      warn: true,
      reversal: 'PARTIAL',
    });
    expect(lookupOutcome({ ...body('Completed'), pidx: 'another' }, payment, now)).toMatchObject({
      kind: 'UNREADABLE',
    });
    expect(lookupOutcome({ ...body('Completed'), total_amount: 4500.5 }, payment, now)).toMatchObject({
      kind: 'UNREADABLE',
    });
  });

  it('reads a status in either of the spellings Khalti documents, and a Completed payment whose `refunded` is true as partly refunded', () => {
    const body = (status: string, refunded = false) => ({
      pidx: payment.providerRef,
      total_amount: 450000,
      status,
      transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe',
      fee: 0,
      refunded,
    });
    const partial = { kind: 'OPEN', status: 'Partially Refunded', warn: true, reversal: 'PARTIAL' };
    expect(lookupOutcome(body('Partially refunded', true), payment, now)).toEqual(partial);
    expect(lookupOutcome(body('PARTIALLY REFUNDED', true), payment, now)).toEqual(partial);
    expect(lookupOutcome(body('Completed', true), payment, now)).toEqual(partial);
    expect(lookupOutcome(body('user canceled'), payment, now)).toMatchObject({
      kind: 'FINAL',
      report: { status: 'CANCELLED' },
    });
  });

  it("tells a bank-funded payment from Khalti's transaction record: an ebanker, or a type other than a wallet payment", () => {
    expect(transactionFunding({ type: { name: 'Wallet payment' }, ebanker: null })).toBe('WALLET');
    expect(transactionFunding({ type: { name: 'Ebanking payment' }, ebanker: { name: 'Nabil Bank Limited' } })).toBe(
      'BANK',
    );
    expect(transactionFunding({ type: { name: 'Mobile banking payment' }, ebanker: null })).toBe('BANK');
    expect(transactionFunding({})).toBe('UNKNOWN');
  });

  it('refuses a return for another pidx, reference or amount before Khalti is asked', () => {
    const query = {
      pidx: payment.providerRef,
      purchase_order_id: payment.paymentRef,
      amount: '450000',
      total_amount: '450000',
      status: 'Completed',
    };
    expect(returnProblem(query, payment)).toBeUndefined();
    expect(returnProblem({ ...query, status: 'anything' }, payment)).toBeUndefined();
    expect(returnProblem({ ...query, pidx: 'another' }, payment)).toMatch(/pidx/);
    expect(returnProblem({ ...query, purchase_order_id: 'ORD-2026-000143-1' }, payment)).toMatch(/purchase_order_id/);
    expect(returnProblem({ ...query, amount: '45000' }, payment)).toMatch(/amount/);
    expect(returnProblem(query, { ...payment, providerRef: null })).toMatch(/no Khalti payment/);
  });
});
