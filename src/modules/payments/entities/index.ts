import { PaymentAttempt } from './payment-attempt';
import { PaymentAttemptOrder } from './payment-attempt-order';
import { SandboxGatewayPayment } from '../providers/sandbox/entities/sandbox-gateway-payment';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const PAYMENT_ENTITIES = [PaymentAttempt, PaymentAttemptOrder, SandboxGatewayPayment];
