import type { Logger } from '../../kernel/logging/logger';
import type { Minor } from '../../kernel/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { GatewayName, PaymentAttempt } from '../payments/entities/payment-attempt';
import type { Order } from '../orders/entities/order';
import type { RefundCause } from './rules/refund-life';

/**
 * The provider port as refunds use it: a payment gateway's refund call (payments' PaymentGateway
 * has this shape; the refunds module names only what it calls, so it needs none of payments'
 * use cases and payments may build on it).
 */
export interface RefundGateway {
  /** The provider behind the gateway: sandbox, khalti or esewa. */
  readonly provider: string;
  /** Whether the provider refunds through an API (`API`) or only by hand in its portal (`MANUAL`). */
  readonly refunds: 'API' | 'MANUAL';
  refund(request: RefundCall): Promise<RefundAnswer>;
}

/** One refund to make at the provider, for (part of) a captured payment. */
export interface RefundCall {
  /** Our refund reference: the provider's idempotency key where it takes one. */
  refundRef: string;
  payment: {
    paymentRef: string;
    providerRef?: string | null;
    amount: Minor;
    currency: string;
    gatewayTransactionId?: string | null;
    customerMobile?: string | null;
  };
  /** What goes back, in minor units (paisa); may be less than the payment (a partial refund). */
  amount: Minor;
  /**
   * Whether an earlier try of this refund may have reached the refund call with an answer never
   * learnt: the adapter looks before it refunds again, and cannot take a partial refund it sees
   * as this one's. An adapter that fails before sending the refund call throws
   * ProviderUnavailableError with `nothingSent`, so that try does not make the next a retry.
   */
  retry: boolean;
  /** The part of the payment our other refunds already gave back (a group's other shares). */
  refundedBefore: Minor;
  /** Whether another of our refunds of this payment was sent with an outcome we do not know. */
  othersUncertain: boolean;
}

/**
 * The provider's answer: the money went back; the provider has no refund API, or shows something
 * only an operator can judge (MANUAL, with what was seen); or it refused for good. An unavailable
 * provider throws ProviderUnavailableError: the refund is tried again later.
 */
export type RefundAnswer =
  | { kind: 'REFUNDED'; providerRefundRef: string }
  | { kind: 'MANUAL'; why: string }
  | { kind: 'REFUSED'; reason: string }
  /** The provider refunds this payment only to the customer's account, which needs a mobile the service does not have. */
  | { kind: 'NEEDS_CUSTOMER_MOBILE'; why: string };

/**
 * The provider adapters as refunds reach them: `get` by gateway (today's provider), `of` by the
 * provider that took an attempt (payments' GatewayRegistry has this shape).
 */
export interface RefundGateways {
  get(name: GatewayName): RefundGateway | undefined;
  of(name: GatewayName, provider: string): RefundGateway | undefined;
}

interface RefundCounter {
  inc(labels: Partial<Record<'gateway' | 'status', string | number>>, value?: number): void;
}

/** The audit entries a refund's life adds to its order's log. */
export type RefundAuditAction =
  'REFUND_CREATED' | 'REFUND_SUCCEEDED' | 'REFUND_MANUAL' | 'REFUND_FAILED' | 'REFUND_RETRIED' | 'REFUND_CONFIRMED';

/**
 * What a refund's life writes in tables refunds does not own (decision record 0111): the payment
 * share it gives back and the attempt (payments'), and its order's audit log (orders'). Refunds
 * reads them and never writes them; payments' `refundWrites` is the one implementation (refunds
 * imports neither of its callers, decision record 0075).
 */
export interface RefundWrites {
  /** A refund was recorded for the order's share of the attempt: the share owes it (REFUND_PENDING). */
  owe(tx: EntityManager, attempt: PaymentAttempt, order: Order, at: Date): Promise<void>;
  /**
   * A refund of the order's share went back: the share reads REFUNDED (unless the refund is a
   * reversal found at the provider), and a late capture's attempt once none of it is owed.
   */
  refunded(
    tx: EntityManager,
    refund: { attempt: PaymentAttempt; order: Order; cause: RefundCause; at: Date },
  ): Promise<void>;
  /** The operator confirmed the payment's refunds by hand: the attempt keeps the note. */
  noted(tx: EntityManager, attempt: PaymentAttempt, note: string, at: Date): Promise<void>;
  /** An entry of the order's audit log, in the caller's transaction. */
  audit(
    tx: EntityManager,
    entry: { actor: string; action: RefundAuditAction; order: Order; at: Date; details: Record<string, unknown> },
  ): void;
}

/**
 * What every writer of a refund's life is given (payments' PaymentDeps is one): the payment's
 * writer for the share it settles, and the counter of refunds by status.
 */
export type RefundPorts = Pick<RefundDeps, 'refundWrites' | 'metrics'>;

/** What the refund executor needs besides a database (payments' PaymentDeps is one). */
export interface RefundDeps {
  refundWrites: RefundWrites;
  payments: {
    providerLookupAttempts: number;
    providerTimeoutMs: number;
    refundIntervalSeconds: number;
    refundRetryBaseSeconds: number;
    refundRetryDays: number;
  };
  gateways: RefundGateways;
  logger: Logger;
  metrics?: { refunds?: RefundCounter };
}
