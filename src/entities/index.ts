import { AccessToken } from './access-token';
import { AuditEntry } from './audit-entry';
import { Company } from './company';
import { Credential } from './credential';
import { Ctg } from './ctg';
import { Document } from './document';
import { Order } from './order';
import { OrderGroup } from './order-group';
import { OrderTravelCompany } from './order-travel-company';
import { PaymentAttempt } from './payment-attempt';
import { PaymentAttemptOrder } from './payment-attempt-order';
import { PromoCode } from './promo-code';
import { Quote } from './quote';
import { RateLimitBucket } from './rate-limit-bucket';
import { Route } from './route';
import { SalesAgent } from './sales-agent';
import { SandboxGatewayPayment } from './sandbox-gateway-payment';
import { Traveller } from './traveller';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookEndpoint } from './webhook-endpoint';
import { WebhookEvent } from './webhook-event';

/** Every entity the ORM knows; listed explicitly so no folder scanning happens at start. */
export const entities = [Company, SalesAgent, Credential, AccessToken, Route, Ctg, Quote, Document, Traveller, OrderGroup, Order, OrderTravelCompany, PaymentAttempt, PaymentAttemptOrder, SandboxGatewayPayment, PromoCode, RateLimitBucket, AuditEntry, WebhookEndpoint, WebhookEvent, WebhookDelivery];
