import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor } from '../../domain/money';
import { SandboxGatewayPayment } from '../../entities/sandbox-gateway-payment';
import type { Logger } from '../../logger';
import { checkoutView, type CheckoutView } from '../../services/payment-checkout-view';
import { signCallback } from '../callback-signature';
import { GATEWAY_NAMES, type GatewayName } from '../gateway';
import { checkoutFormPage, checkoutMessagePage, type CheckoutPageModel } from './checkout-page';
import { reportOf, type SandboxGateway } from './sandbox-gateway';
import { decideCheckout, type CheckoutInput } from './test-instruments';

export interface SandboxCheckoutDeps {
  gateways: ReadonlyMap<GatewayName, SandboxGateway>;
  newEm: () => EntityManager;
  merchantName: string;
  baseUrl: () => string;
  logger: Logger;
}

/**
 * The hosted checkout pages of the sandbox gateways. They stand in for an external gateway: they
 * read the payment through the merchant's checkout view, keep their own ledger of decisions, and
 * send the browser back to the merchant's callback with a signed payload.
 */
export function sandboxCheckoutRouter(deps: SandboxCheckoutDeps): Router {
  const router = express.Router();
  router.use('/sandbox', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    // Content-Security-Policy (never framed, nothing loaded but inline styles) comes from the app's security headers.
    next();
  });

  router.get('/sandbox/:gateway/checkout/:paymentRef', (req, res, next) => {
    page(req, res, deps).catch(next);
  });
  router.post('/sandbox/:gateway/checkout/:paymentRef', express.urlencoded({ extended: false, limit: '8kb' }), (req, res, next) => {
    submit(req, res, deps).catch(next);
  });
  return router;
}

type Loaded = { gateway: SandboxGateway; view: CheckoutView; model: CheckoutPageModel; decision: SandboxGatewayPayment | null; em: EntityManager };

async function load(req: Request, res: Response, deps: SandboxCheckoutDeps): Promise<Loaded | undefined> {
  const name = req.params.gateway as GatewayName;
  const gateway = GATEWAY_NAMES.includes(name) ? deps.gateways.get(name) : undefined;
  const em = deps.newEm();
  const view = gateway ? await checkoutView(em, req.params.paymentRef) : null;
  if (!gateway || !view || view.gateway !== name) {
    res.status(404).type('html').send(checkoutMessagePage('Unknown payment', 'This checkout link does not match any payment.'));
    return undefined;
  }
  const decision = await em.findOne(SandboxGatewayPayment, { paymentRef: view.paymentRef });
  const model: CheckoutPageModel = { ...view, gateway: name, merchantName: deps.merchantName };
  return { gateway, view, model, decision, em };
}

async function page(req: Request, res: Response, deps: SandboxCheckoutDeps): Promise<void> {
  const loaded = await load(req, res, deps);
  if (!loaded) return;
  if (loaded.decision) {
    res.status(200).type('html').send(checkoutMessagePage('Payment already processed', `This payment was already processed (${loaded.decision.status}).`));
  } else if (!loaded.view.open) {
    res.status(410).type('html').send(checkoutMessagePage('Payment no longer open', 'This payment was replaced, expired or settled. Return to the merchant to start again.'));
  } else {
    res.status(200).type('html').send(checkoutFormPage(loaded.model));
  }
}

async function submit(req: Request, res: Response, deps: SandboxCheckoutDeps): Promise<void> {
  const loaded = await load(req, res, deps);
  if (!loaded) return;
  const { gateway, view, model, em } = loaded;
  if (!view.open && !loaded.decision) {
    res.status(410).type('html').send(checkoutMessagePage('Payment no longer open', 'This payment was replaced, expired or settled. Return to the merchant to start again.'));
    return;
  }
  if (loaded.decision) {
    // Already decided (a second submit or another tab): the first decision stands and was reported.
    res.status(200).type('html').send(checkoutMessagePage('Payment already processed', `This payment was already processed (${loaded.decision.status}).`));
    return;
  }
  const outcome = decideCheckout(gateway.name, (req.body ?? {}) as CheckoutInput);
  if (!outcome.decided) {
    res.status(422).type('html').send(checkoutFormPage(model, outcome.problem));
    return;
  }
  const prefix = gateway.name === 'card_gateway' ? 'CG' : 'WG';
  // One decision per payment reference: a double submit or two tabs charge once.
  await em.getConnection().execute(
    `insert into "sandbox_gateway_payment" ("payment_ref", "gateway", "status", "reason", "amount", "currency", "transaction_id", "instrument", "decided_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict ("payment_ref") do nothing`,
    [view.paymentRef, gateway.name, outcome.status, outcome.reason ?? null, decimalStringFromMinor(view.amount), view.currency, `${prefix}-${randomBytes(8).toString('hex').toUpperCase()}`, outcome.instrument ?? null],
  );
  const decision = await em.fork().findOneOrFail(SandboxGatewayPayment, { paymentRef: view.paymentRef });
  deps.logger.info({ gateway: gateway.name, paymentRef: view.paymentRef, status: decision.status }, 'sandbox gateway decided');
  const { payload, signature } = signCallback({ ...reportOf(decision), issuedAt: new Date() }, gateway.secretForSigning());
  const callback = new URL(`${deps.baseUrl()}/api/external/payment/response`);
  callback.searchParams.set('gateway', gateway.name);
  callback.searchParams.set('payload', payload);
  callback.searchParams.set('signature', signature);
  res.redirect(303, callback.toString());
}
