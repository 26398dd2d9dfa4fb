import {
  attemptStep,
  shareStep,
  type AttemptStatus,
  type AttemptStep,
  type ShareState,
  type ShareStep,
} from '../../src/modules/payments/rules/payment-attempt';

/**
 * Decision record 0111: a payment attempt and each order's share of it move only along these
 * edges (payments/attempt-life.ts applies them). Every edge not listed is refused.
 */
const ATTEMPT_EDGES: ReadonlyArray<[AttemptStatus, AttemptStep, AttemptStatus]> = [
  ['INITIATED', 'CAPTURE', 'SUCCESS'], // the capture pays at least one order
  ['CANCELLED', 'CAPTURE', 'SUCCESS'], // a late capture of an attempt we closed
  ['EXPIRED', 'CAPTURE', 'SUCCESS'],
  ['INITIATED', 'CAPTURE_OWED', 'REFUND_PENDING'], // the capture pays no order
  ['CANCELLED', 'CAPTURE_OWED', 'REFUND_PENDING'],
  ['EXPIRED', 'CAPTURE_OWED', 'REFUND_PENDING'],
  ['INITIATED', 'DECLINE', 'FAILED'],
  ['INITIATED', 'CANCEL', 'CANCELLED'], // the gateway's word, or we close it
  ['INITIATED', 'EXPIRE', 'EXPIRED'],
  ['REFUND_PENDING', 'REFUND', 'REFUNDED'], // the last owed share's refund succeeded
  ['SUCCESS', 'REVERSE', 'REFUNDED'], // a full reversal at the provider
];

const SHARE_EDGES: ReadonlyArray<[ShareState, ShareStep, ShareState]> = [
  [null, 'PAY', 'PAID'],
  [null, 'OWE', 'REFUND_PENDING'], // captured for an order that cannot take it
  ['PAID', 'OWE', 'REFUND_PENDING'], // a cancellation's or a top-up's refund recorded
  ['REFUND_PENDING', 'OWE', 'REFUND_PENDING'], // a late capture's share gets its refund
  ['REFUND_PENDING', 'REFUND', 'REFUNDED'],
  ['PAID', 'REVERSE', 'REFUNDED'],
  ['REFUND_PENDING', 'REVERSE', 'REFUNDED'],
  ['REFUNDED', 'REVERSE', 'REFUNDED'],
];

const ATTEMPT_STATUSES: AttemptStatus[] = [
  'INITIATED',
  'SUCCESS',
  'FAILED',
  'CANCELLED',
  'EXPIRED',
  'REFUND_PENDING',
  'REFUNDED',
];
const ATTEMPT_STEPS: AttemptStep[] = ['CAPTURE', 'CAPTURE_OWED', 'DECLINE', 'CANCEL', 'EXPIRE', 'REFUND', 'REVERSE'];
const SHARE_STATES: ShareState[] = [null, 'PAID', 'REFUND_PENDING', 'REFUNDED'];
const SHARE_STEPS: ShareStep[] = ['PAY', 'OWE', 'REFUND', 'REVERSE'];

const attemptPairs = ATTEMPT_STATUSES.flatMap((from) => ATTEMPT_STEPS.map((step) => [from, step] as const));
const sharePairs = SHARE_STATES.flatMap((from) => SHARE_STEPS.map((step) => [from, step] as const));
const isAttemptEdge = (from: AttemptStatus, step: AttemptStep) =>
  ATTEMPT_EDGES.some(([f, s]) => f === from && s === step);
const isShareEdge = (from: ShareState, step: ShareStep) => SHARE_EDGES.some(([f, s]) => f === from && s === step);

describe("a payment attempt's machine", () => {
  it.each(ATTEMPT_EDGES)('a %s attempt takes %s to %s', (from, step, to) => {
    expect(attemptStep(from, step)).toEqual({ to });
  });

  it.each(attemptPairs.filter(([from, step]) => !isAttemptEdge(from, step)))(
    'a %s attempt is refused %s',
    (from, step) => {
      expect(attemptStep(from, step)).toEqual({ refused: expect.stringContaining(`a ${from} attempt cannot take`) });
    },
  );

  it('no final attempt moves again but by a refund or a reversal', () => {
    for (const from of ['FAILED', 'REFUNDED'] as const)
      expect(ATTEMPT_STEPS.filter((step) => 'to' in attemptStep(from, step))).toEqual([]);
  });
});

describe("a share's machine", () => {
  it.each(SHARE_EDGES)('a %s share takes %s to %s', (from, step, to) => {
    expect(shareStep(from, step)).toEqual({ to });
  });

  it.each(sharePairs.filter(([from, step]) => !isShareEdge(from, step)))('a %s share is refused %s', (from, step) => {
    expect(shareStep(from, step)).toEqual({
      refused: expect.stringContaining(`a ${from ?? 'unsettled'} share cannot take`),
    });
  });
});
