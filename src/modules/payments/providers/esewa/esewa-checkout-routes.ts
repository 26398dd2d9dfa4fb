import express, { type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checkoutView } from '../../checkout-view';
import { PAYMENT_CLOSED_PAGE, UNKNOWN_PAYMENT_PAGE } from '../sandbox/checkout-page';
import { isGatewayName, type GatewayName } from '../gateway';
import type { EsewaGateway } from './esewa-gateway';
import { ESEWA_PAGE_CSP, esewaFormPage } from './esewa-form-page';

export interface EsewaCheckoutDeps {
  gateways: ReadonlyMap<GatewayName, EsewaGateway>;
  newEm: () => EntityManager;
  merchantName: string;
}

export const esewaCheckoutPath = (gateway: GatewayName, paymentRef: string) =>
  `/checkout/esewa/${gateway}/${encodeURIComponent(paymentRef)}`;

/**
 * GET /checkout/esewa/{gateway}/{paymentRef}?t=...: the page that posts the signed form to eSewa,
 * only while the attempt is open, so a closed attempt hands out no fresh form.
 */
export function esewaCheckoutRouter(deps: EsewaCheckoutDeps): Router {
  const router = express.Router();
  router.get('/checkout/esewa/:gateway/:paymentRef', (req, res, next) => {
    (async () => {
      res.setHeader('Cache-Control', 'no-store');
      const gateway = isGatewayName(req.params.gateway) ? deps.gateways.get(req.params.gateway) : undefined;
      const view = gateway?.acceptsCheckoutToken(req.params.paymentRef, req.query.t)
        ? await checkoutView(deps.newEm(), req.params.paymentRef)
        : null;
      if (!gateway || !view || view.gateway !== gateway.name) {
        res.status(404).type('html').send(UNKNOWN_PAYMENT_PAGE);
        return;
      }
      if (!view.open) {
        res.status(410).type('html').send(PAYMENT_CLOSED_PAGE);
        return;
      }
      const { action, fields } = gateway.signedForm(view);
      res.setHeader('Content-Security-Policy', ESEWA_PAGE_CSP);
      res
        .status(200)
        .type('html')
        .send(
          esewaFormPage(action, fields, {
            merchantName: deps.merchantName,
            amount: view.amount,
            currency: view.currency,
          }),
        );
    })().catch(next);
  });
  return router;
}
