import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentAttempt } from './entities/payment-attempt';
import { SandboxGatewayPayment } from './providers/sandbox/entities/sandbox-gateway-payment';
import { OperatorRefusal } from '../../kernel/operator-refusal';

export interface PaymentOverview {
  attempt: PaymentAttempt;
  /** The sandbox gateway's own record of its decision, when a sandbox gateway took the payment. */
  sandbox: SandboxGatewayPayment | null;
}

/** `ops payment show`: an attempt with its orders, group and company, and what the sandbox gateway decided. */
export async function paymentOverview(em: EntityManager, paymentRef: string): Promise<PaymentOverview> {
  const attempt = await em.findOne(PaymentAttempt, { paymentRef }, { populate: ['orders.order', 'group', 'company'] });
  if (!attempt) throw new OperatorRefusal(`no payment attempt ${paymentRef}`);
  const sandbox = await em.findOne(SandboxGatewayPayment, { paymentRef });
  return { attempt, sandbox };
}

/** Every payment that owes money back (a share REFUND_PENDING), oldest first: `ops payment refunds`. */
export function paymentsOwingRefunds(em: EntityManager): Promise<PaymentAttempt[]> {
  return em.find(
    PaymentAttempt,
    { orders: { settlement: 'REFUND_PENDING' } },
    { populate: ['orders.order', 'company'], orderBy: { completedAt: 'asc' } },
  );
}
