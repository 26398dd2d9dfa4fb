import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import type { OperationResult } from './operation-result';

type Schemas = components['schemas'];
type Query<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/** The booking steps before the order: the catalogue, a quote, travellers. */
export function bookingCalls(api: Client<paths>) {
  return {
    /** POST /reference/quote: the price of a trip, fixed for the order that names the quote. */
    quote: (body: Schemas['QuoteRequest']): Promise<OperationResult<'createQuote'>> =>
      api.POST('/api/external/v1/reference/quote', { body }),
    getQuote: (quoteId: string): Promise<OperationResult<'getQuote'>> =>
      api.GET('/api/external/v1/reference/quote/{quoteId}', { params: { path: { quoteId } } }),
    listPackages: (query: Query<'/api/external/v1/reference/ctgs'> = {}): Promise<OperationResult<'listCtgs'>> =>
      api.GET('/api/external/v1/reference/ctgs', { params: { query } }),
    listRoutes: (query: Query<'/api/external/v1/reference/routes'> = {}): Promise<OperationResult<'listRoutes'>> =>
      api.GET('/api/external/v1/reference/routes', { params: { query } }),
    /** GET /disruptions: weather disruptions (active and recent) a cover of a route in their area may be extended free under. */
    listDisruptions: (query: Query<'/api/external/v1/disruptions'> = {}): Promise<OperationResult<'listDisruptions'>> =>
      api.GET('/api/external/v1/disruptions', { params: { query } }),
    /** POST /travellers (1 to 50), with an Idempotency-Key that a retry of this call sends again. */
    registerTravellers: (
      travellers: Schemas['TravellerInput'][],
      idempotencyKey: string,
    ): Promise<OperationResult<'registerTravellers'>> =>
      api.POST('/api/external/v1/travellers', {
        body: travellers,
        params: { header: { 'Idempotency-Key': idempotencyKey } },
      }),
    listTravellers: (query: Query<'/api/external/v1/travellers'> = {}): Promise<OperationResult<'listTravellers'>> =>
      api.GET('/api/external/v1/travellers', { params: { query } }),
  };
}

/** Promo codes on an unpaid order or on a whole group: preview (changes nothing), apply, remove. */
export function promoCalls(api: Client<paths>) {
  const order = (orderRef: string) => ({ params: { path: { orderRef } } });
  const group = (groupRef: string) => ({ params: { path: { groupRef } } });
  return {
    previewOnOrder: (orderRef: string, promoCode: string): Promise<OperationResult<'previewOrderPromo'>> =>
      api.POST('/api/external/v1/orders/{orderRef}/promo/preview', { ...order(orderRef), body: { promoCode } }),
    applyToOrder: (orderRef: string, promoCode: string): Promise<OperationResult<'applyOrderPromo'>> =>
      api.POST('/api/external/v1/orders/{orderRef}/promo', { ...order(orderRef), body: { promoCode } }),
    removeFromOrder: (orderRef: string, code: string): Promise<OperationResult<'removeOrderPromo'>> =>
      api.DELETE('/api/external/v1/orders/{orderRef}/promo', { params: { path: { orderRef }, query: { code } } }),
    previewOnGroup: (groupRef: string, promoCode: string): Promise<OperationResult<'previewGroupPromo'>> =>
      api.POST('/api/external/v1/orders/groups/{groupRef}/promo/preview', { ...group(groupRef), body: { promoCode } }),
    applyToGroup: (groupRef: string, promoCode: string): Promise<OperationResult<'applyGroupPromo'>> =>
      api.POST('/api/external/v1/orders/groups/{groupRef}/promo', { ...group(groupRef), body: { promoCode } }),
    removeFromGroup: (groupRef: string, code: string): Promise<OperationResult<'removeGroupPromo'>> =>
      api.DELETE('/api/external/v1/orders/groups/{groupRef}/promo', {
        params: { path: { groupRef }, query: { code } },
      }),
  };
}
