import express, { type Request, type Response, type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SandboxGatewayPayment } from './entities/sandbox-gateway-payment';
import type { Logger } from '../../../../kernel/logging/logger';
import { checkoutView, type CheckoutView } from '../../checkout-view';
import { isGatewayName, type GatewayName } from '../gateway';
import {
  checkoutFormPage,
  checkoutMessagePage,
  PAYMENT_CLOSED_PAGE,
  UNKNOWN_PAYMENT_PAGE,
  type CheckoutPageModel,
} from './checkout-page';
import type { SandboxGateway } from './sandbox-gateway';
import { decideAtSandboxGateway } from './sandbox-decision';
import { findSandboxDecision, VOIDED_BY_MERCHANT } from './sandbox-ledger';
import { checkoutInputOf, decideCheckout } from './test-instruments';

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
  router.post(
    '/sandbox/:gateway/checkout/:paymentRef',
    express.urlencoded({ extended: false, limit: '8kb' }),
    (req, res, next) => {
      submit(req, res, deps).catch(next);
    },
  );
  return router;
}

/** The path parameters of every checkout page route. */
type CheckoutParams = { gateway: string; paymentRef: string };

type Loaded = {
  gateway: SandboxGateway;
  view: CheckoutView;
  model: CheckoutPageModel;
  decision: SandboxGatewayPayment | null;
  em: EntityManager;
};

async function load(
  req: Request<CheckoutParams>,
  res: Response,
  deps: SandboxCheckoutDeps,
): Promise<Loaded | undefined> {
  const name = req.params.gateway;
  const found = isGatewayName(name) ? deps.gateways.get(name) : undefined;
  // A link without its token reads exactly like a link to no payment: references are guessable.
  const gateway = found?.acceptsCheckoutToken(req.params.paymentRef, req.query.t) ? found : undefined;
  const em = deps.newEm();
  const view = gateway ? await checkoutView(em, req.params.paymentRef) : null;
  if (!gateway || !view || view.gateway !== name) {
    res.status(404).type('html').send(UNKNOWN_PAYMENT_PAGE);
    return undefined;
  }
  const decision = await findSandboxDecision(em, view.paymentRef);
  const model: CheckoutPageModel = { ...view, gateway: name, merchantName: deps.merchantName };
  return { gateway, view, model, decision, em };
}

/**
 * Whether the checkout still takes the payment. A gateway that can void knows of every close (a
 * void is a decision in its ledger), and also honours the merchant's view; one that cannot void
 * knows only its own expiry, like a wallet payment link.
 */
function acceptsPayment(loaded: Loaded): boolean {
  if (loaded.decision) return false;
  return loaded.gateway.canVoid ? loaded.view.open : loaded.view.expiresAt.getTime() > Date.now();
}

function refusal(res: Response, decision: SandboxGatewayPayment | null): void {
  if (decision && decision.reason !== VOIDED_BY_MERCHANT) {
    // Already decided (a second submit or another tab): the first decision stands and was reported.
    res
      .status(200)
      .type('html')
      .send(
        checkoutMessagePage('Payment already processed', `This payment was already processed (${decision.status}).`),
      );
    return;
  }
  res.status(410).type('html').send(PAYMENT_CLOSED_PAGE);
}

async function page(req: Request<CheckoutParams>, res: Response, deps: SandboxCheckoutDeps): Promise<void> {
  const loaded = await load(req, res, deps);
  if (!loaded) return;
  if (acceptsPayment(loaded)) res.status(200).type('html').send(checkoutFormPage(loaded.model));
  else refusal(res, loaded.decision);
}

async function submit(req: Request<CheckoutParams>, res: Response, deps: SandboxCheckoutDeps): Promise<void> {
  const loaded = await load(req, res, deps);
  if (!loaded) return;
  const { gateway, view, model, em } = loaded;
  if (!acceptsPayment(loaded)) {
    refusal(res, loaded.decision);
    return;
  }
  const outcome = decideCheckout(gateway.name, checkoutInputOf(req.body));
  if (!outcome.decided) {
    res.status(422).type('html').send(checkoutFormPage(model, outcome.problem));
    return;
  }
  const decided = await decideAtSandboxGateway(em, gateway, view, outcome);
  if (!decided.decided) {
    // Another tab, a double click or the merchant's void decided first.
    refusal(res, decided.decision);
    return;
  }
  const {
    decision,
    callback: { payload, signature },
  } = decided;
  deps.logger.info(
    { gateway: gateway.name, paymentRef: view.paymentRef, status: decision.status },
    'sandbox gateway decided',
  );
  const callback = new URL(`${deps.baseUrl()}/api/external/payment/response`);
  callback.searchParams.set('gateway', gateway.name);
  callback.searchParams.set('payload', payload);
  callback.searchParams.set('signature', signature);
  res.redirect(303, callback.toString());
}
