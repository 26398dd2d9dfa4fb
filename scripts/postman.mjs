// `npm run postman`: the bundled contract -> a Postman collection that walks a policy's life as
// one story in folders (booking, payment, after the sale, claims, order book, webhooks, events), plus a
// sandbox environment and the three images it uploads, all in postman/ (committed), and nothing
// anywhere else, wherever it is run from. Every request is an operation of the
// document (its method and path from generated/openapi.json); each takes the ids and references
// the previous answers stored, and checks three things: the status, the body against the
// operation's response schema for that status (dereferenced from the document), and the
// business result (the quote's price carried into the order, the discount arithmetic, the
// payment reference of the order...). No request sends a placeholder. The sandbox helpers play
// the customer, the provider and the calendar (no checkout page is scraped), and the story leaves
// the test clock unset, so it runs again and again against one server.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const $RefParser = require('@apidevtools/json-schema-ref-parser');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'postman');
const document = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8'));
const dereferenced = await $RefParser.dereference(structuredClone(document));
const operations = new Map();
for (const [path, items] of Object.entries(dereferenced.paths)) {
  for (const [method, operation] of Object.entries(items)) {
    if (operation.operationId) operations.set(operation.operationId, { path, method: method.toUpperCase(), operation });
  }
}

// A 1x1 PNG: the service sniffs the bytes, so each document is a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const TRAVELLERS = [
  {
    key: 'sophie',
    name: 'Sophie Keller',
    dateOfBirth: '1991-03-14',
    nationality: 'Germany',
    phone: '+49 151 23456789',
  },
  {
    key: 'daniel',
    name: 'Daniel Okafor',
    dateOfBirth: '1986-11-02',
    nationality: 'United Kingdom',
    phone: '+44 7700 900123',
  },
  { key: 'meilin', name: 'Mei Lin Tan', dateOfBirth: '1995-07-22', nationality: 'Singapore', phone: '+65 9123 4567' },
];
const DOCUMENT_TYPES = ['AVATAR', 'PASSPORT', 'SIGNATURE'];
const json = (value) => JSON.stringify(value, null, 2);
/** OpenAPI's integer formats are annotations; Postman's Ajv 6 fails a schema that names them. */
const withoutIntegerFormats = (key, value) =>
  key === 'format' && (value === 'int32' || value === 'int64') ? undefined : value;

/** One request of the story: an operation, the values it sends, what it must answer. */
function step({
  name,
  operationId,
  pathParams = {},
  query,
  headers = {},
  body,
  formdata,
  status,
  checks = [],
  prerequest,
  noAuth = false,
  mediaType = 'application/json',
}) {
  const { path, method, operation } = operations.get(operationId);
  if (!operation.responses[status]) throw new Error(`${operationId} does not document ${status}`);
  if (!operation.responses[status].content?.[mediaType])
    throw new Error(`${operationId} does not document ${mediaType} for ${status}`);
  const isJson = mediaType === 'application/json';
  const schema = isJson ? operation.responses[status].content[mediaType].schema : undefined;
  const rawPath = path.replace(/\{(\w+)\}/g, (_, param) => pathParams[param]);
  // A `{{variable}}` stays as it is, for Postman to fill in.
  const queryString = query ? `?${new URLSearchParams(query)}`.replace(/%7B%7B(\w+)%7D%7D/g, '{{$1}}') : '';
  const tests = [
    `pm.test('${operationId} answers ${status}', () => pm.response.to.have.status(${status}));`,
    ...(schema
      ? [
          `pm.test('the body is the documented ${status} of ${operationId}', () => pm.response.to.have.jsonSchema(${JSON.stringify(schema, withoutIntegerFormats)}));`,
        ]
      : []),
    // A text answer (the CSV export) is read with pm.response.text() by its checks.
    `const body = pm.response.code < 300 && ${isJson} ? pm.response.json() : undefined;`,
    'const data = body && body.data;',
    ...checks,
  ];
  return {
    name,
    request: {
      method,
      ...(noAuth ? { auth: { type: 'noauth' } } : {}),
      header: [
        ...(body !== undefined ? [{ key: 'Content-Type', value: 'application/json' }] : []),
        ...Object.entries(headers).map(([key, value]) => ({ key, value })),
      ],
      url: `{{baseUrl}}${rawPath}${queryString}`,
      ...(body !== undefined ? { body: { mode: 'raw', raw: typeof body === 'string' ? body : json(body) } } : {}),
      ...(formdata ? { body: { mode: 'formdata', formdata } } : {}),
    },
    // In a block of its own: the sandbox has legacy globals (`data`, `responseBody`) a script must not redeclare.
    event: [
      { listen: 'test', script: { type: 'text/javascript', exec: ['{', ...tests, '}'] } },
      ...(prerequest
        ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: ['{', ...prerequest, '}'] } }]
        : []),
    ],
  };
}

const set = (name, expression) => `pm.collectionVariables.set('${name}', ${expression});`;
const check = (title, assertion) => `pm.test(${JSON.stringify(title)}, () => { ${assertion} });`;

const booking = [
  step({
    name: 'Take a token',
    operationId: 'issueToken',
    noAuth: true,
    status: 200,
    body: { clientId: '{{clientId}}', clientSecret: '{{clientSecret}}' },
    checks: [
      check('the token is a bearer token', "pm.expect(data.tokenType).to.equal('Bearer');"),
      "pm.environment.set('accessToken', data.accessToken);",
    ],
  }),
  step({
    name: 'Find Everest Base Camp in the routes',
    operationId: 'listRoutes',
    status: 200,
    query: { search: 'Everest Base Camp', size: 5 },
    checks: [
      "const route = data.content.find((r) => r.name.includes('Everest Base Camp'));",
      check(
        'Everest Base Camp is sold',
        'pm.expect(route, JSON.stringify(data.content)).to.be.an("object"); pm.expect(route.maxAltitude).to.be.above(5000);',
      ),
      set('routeId', 'route.routeId'),
    ],
  }),
  step({
    name: 'Weather disruptions a cover of the route may be extended under',
    operationId: 'listDisruptions',
    status: 200,
    query: { area: 'LUKLA' },
    checks: [
      check(
        'every disruption listed is of the Lukla area, as the Everest Base Camp route is',
        'pm.expect(data).to.be.an("array"); data.forEach((d) => pm.expect(d.area).to.equal("LUKLA"));',
      ),
    ],
  }),
  step({
    name: 'Quote the trek for Sophie',
    operationId: 'createQuote',
    status: 200,
    body: { nationality: 'Germany', ages: [40], startDate: '{{departureDate}}', duration: 14, routeId: '{{routeId}}' },
    checks: [
      check(
        'the quote is active, for the route and the dates asked',
        "pm.expect(data).to.include({ quoteStatus: 'ACTIVE', routeId: pm.collectionVariables.get('routeId'), startDate: pm.collectionVariables.get('departureDate'), durationDays: 14 });",
      ),
      check('the price is positive', 'pm.expect(data.totalAmount).to.be.above(0);'),
      set('quoteId', 'data.quoteId'),
      set('ctgId', 'data.ctgId'),
      set('quoteTotal', 'data.totalAmount'),
    ],
  }),
  ...TRAVELLERS.flatMap((traveller) =>
    DOCUMENT_TYPES.map((documentType) =>
      step({
        name: `Upload ${traveller.name}'s ${documentType.toLowerCase()}`,
        operationId: 'uploadDocument',
        status: 201,
        formdata: [
          { key: 'documentType', value: documentType, type: 'text' },
          { key: 'file', src: `postman/${documentType.toLowerCase()}.png`, type: 'file' },
        ],
        checks: [
          check(
            'the document is a draft of the type sent',
            `pm.expect(data).to.include({ documentType: '${documentType}', status: 'DRAFT' });`,
          ),
          set(`${traveller.key}${documentType}`, 'data.documentId'),
        ],
      }),
    ),
  ),
  step({
    name: 'Register the three travellers',
    operationId: 'registerTravellers',
    status: 201,
    body: TRAVELLERS.map((traveller) => ({
      // A run id keeps every run's travellers apart.
      email: `${traveller.key}.{{runId}}@example.com`,
      name: traveller.name,
      dateOfBirth: traveller.dateOfBirth,
      nationality: traveller.nationality,
      idType: 'PASSPORT',
      idNumber: `P{{runId}}${traveller.key.toUpperCase().slice(0, 2)}`,
      gender: traveller.key === 'daniel' ? 'MALE' : 'FEMALE',
      phone: traveller.phone,
      emergencyContactName: 'Markus Keller',
      emergencyContactPhone: '+49 170 9876543',
      emergencyContactEmail: 'markus.keller@example.com',
      emergencyContactRelation: 'Friend',
      avatarDocumentId: `{{${traveller.key}AVATAR}}`,
      passportDocumentId: `{{${traveller.key}PASSPORT}}`,
      signatureDocumentId: `{{${traveller.key}SIGNATURE}}`,
    })),
    checks: [
      check(
        'the travellers come back in request order, each with the documents sent',
        `pm.expect(data.map((t) => t.name)).to.eql(${JSON.stringify(TRAVELLERS.map((t) => t.name))}); pm.expect(data[0].avatarDocumentId).to.equal(pm.collectionVariables.get('sophieAVATAR'));`,
      ),
      ...TRAVELLERS.map((traveller, index) => set(`${traveller.key}TouristId`, `data[${index}].touristId`)),
    ],
  }),
  step({
    name: 'Book Sophie from the quote, with the company code HIMALAYA10',
    operationId: 'createOrders',
    status: 201,
    body: {
      touristId: '{{sophieTouristId}}',
      ctgId: '{{ctgId}}',
      quoteId: '{{quoteId}}',
      routeId: '{{routeId}}',
      departureDate: '{{departureDate}}',
      promoCode: 'HIMALAYA10',
    },
    checks: [
      check(
        'the order keeps the quote and is pending',
        "pm.expect(data).to.include({ status: 'PENDING', quoteId: pm.collectionVariables.get('quoteId') }); pm.expect(data.traveller.touristId).to.equal(pm.collectionVariables.get('sophieTouristId'));",
      ),
      check(
        'the promo code was applied at creation',
        "pm.expect(data.promoApplyResult).to.include({ promoCode: 'HIMALAYA10', applied: true }); pm.expect(data.promoCodes.companyPromoCode).to.equal('HIMALAYA10');",
      ),
      check(
        'the total is the quoted price less 10 %',
        "const quoted = Number(pm.collectionVariables.get('quoteTotal')); pm.expect(data.pricing.totalAmount).to.be.closeTo(quoted * 0.9, 0.01);",
      ),
      set('orderRef', 'data.orderRef'),
      set('orderTotal', 'data.pricing.totalAmount'),
    ],
  }),
  step({
    name: 'Preview the agent code PEMBA5 on the order',
    operationId: 'previewOrderPromo',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    body: { promoCode: 'PEMBA5' },
    checks: [
      check(
        'the preview adds the agent code and changes nothing yet',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), companyPromoCode: 'HIMALAYA10', agentPromoCode: 'PEMBA5' }); pm.expect(data.totalAfter).to.be.closeTo(data.totalBefore - data.discountAmount, 0.001);",
      ),
    ],
  }),
  step({
    name: 'Apply PEMBA5',
    operationId: 'applyOrderPromo',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    body: { promoCode: 'PEMBA5' },
    checks: [
      check(
        'both slots are filled and the total went down',
        "pm.expect(data).to.include({ companyPromoCode: 'HIMALAYA10', agentPromoCode: 'PEMBA5' }); pm.expect(data.totalAfter).to.be.below(Number(pm.collectionVariables.get('orderTotal')));",
      ),
    ],
  }),
  step({
    name: 'Remove PEMBA5 again',
    operationId: 'removeOrderPromo',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    query: { code: 'PEMBA5' },
    checks: [
      check(
        'only the company code is left, at the total of the order as created',
        "pm.expect(data).to.include({ companyPromoCode: 'HIMALAYA10', agentPromoCode: null }); pm.expect(data.totalAfter).to.be.closeTo(Number(pm.collectionVariables.get('orderTotal')), 0.001);",
      ),
    ],
  }),
  step({
    name: 'Book Daniel and Mei Lin as a group',
    operationId: 'createOrders',
    status: 201,
    body: ['daniel', 'meilin'].map((key) => ({
      touristId: `{{${key}TouristId}}`,
      ctgId: '{{ctgId}}',
      routeId: '{{routeId}}',
      departureDate: '{{departureDate}}',
    })),
    checks: [
      check(
        'one group of two pending orders',
        "pm.expect(data.orders).to.have.length(2); pm.expect(data.orders.every((o) => o.status === 'PENDING' && o.groupRef === data.groupRef)).to.be.true;",
      ),
      set('groupRef', 'data.groupRef'),
      set('danielOrderRef', 'data.orders[0].orderRef'),
      set('danielTotal', 'data.orders[0].pricing.totalAmount'),
      set('meilinOrderRef', 'data.orders[1].orderRef'),
    ],
  }),
  step({
    name: 'Preview HIMALAYA10 on the group',
    operationId: 'previewGroupPromo',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    body: { promoCode: 'HIMALAYA10' },
    checks: [
      check(
        'both orders would take it and the totals add up',
        "pm.expect(data.groupRef).to.equal(pm.collectionVariables.get('groupRef')); pm.expect(data.orders.every((o) => o.changed)).to.be.true; pm.expect(data.totals.totalAfter).to.be.closeTo(data.totals.totalBefore - data.totals.discountAmount, 0.001);",
      ),
    ],
  }),
  step({
    name: 'Apply HIMALAYA10 to the group',
    operationId: 'applyGroupPromo',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    body: { promoCode: 'HIMALAYA10' },
    checks: [
      check(
        'both orders changed, 10 % off each',
        'pm.expect(data.totals.changedCount).to.equal(2); data.orders.forEach((o) => pm.expect(o.discountAmount).to.be.closeTo(o.totalBefore * 0.1, 0.01));',
      ),
    ],
  }),
  step({
    name: 'An invalid code is refused like any rejected code (deliberate 400)',
    operationId: 'applyOrderPromo',
    status: 400,
    pathParams: { orderRef: '{{orderRef}}' },
    body: { promoCode: 'EXPIRED20' },
    checks: [
      check(
        'the one message of every rejection',
        "pm.expect(pm.response.json().message).to.equal('Invalid promo code');",
      ),
    ],
  }),
];

// The customer pays as on the checkout page, through the sandbox helper (no page to scrape); the
// payment status is then the proof, and the paid order has its certificate. The group is paid the
// same way, with one group payment for both its orders.
const payment = [
  step({
    name: 'Pay the order by card',
    operationId: 'payOrder',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: { gateway: 'card_gateway', returnUrl: 'https://booking.himalayantrails.example.com/payments/complete' },
    checks: [
      check(
        'the attempt is for this order, at its total',
        "pm.expect(data.paymentRef.startsWith(pm.collectionVariables.get('orderRef') + '-')).to.be.true; pm.expect(data.amount).to.be.closeTo(Number(pm.collectionVariables.get('orderTotal')), 0.001); pm.expect(data.paymentUrl).to.match(/^https?:\\/\\//);",
      ),
      set('paymentRef', 'data.paymentRef'),
    ],
  }),
  step({
    name: 'Read the payment status: the checkout is open',
    operationId: 'getPaymentStatus',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    checks: [
      check(
        'the attempt is open and it is the one just started',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), orderStatus: 'PENDING', paymentStatus: 'INITIATED', paymentRef: pm.collectionVariables.get('paymentRef') });",
      ),
    ],
  }),
  step({
    name: 'The customer pays (sandbox helper)',
    operationId: 'setSandboxPaymentOutcome',
    status: 200,
    pathParams: { paymentRef: '{{paymentRef}}' },
    body: { outcome: 'CAPTURED' },
    checks: [
      check(
        'the capture settled the payment: the order is paid',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentRef: pm.collectionVariables.get('paymentRef'), paymentMethod: 'CARD_GATEWAY' });",
      ),
    ],
  }),
  step({
    name: 'Read the payment status: paid, with its policy number',
    operationId: 'getPaymentStatus',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    checks: [
      check(
        'the order is PAID by this payment, at its total',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentRef: pm.collectionVariables.get('paymentRef') }); pm.expect(data.amount).to.be.closeTo(Number(pm.collectionVariables.get('orderTotal')), 0.001); pm.expect(data.completedAt).to.be.a('string');",
      ),
      check(
        'the policy number was issued with the payment',
        'pm.expect(data.policyNumber).to.match(/^(SBX-)?POL-\\d{4}-\\d+$/);',
      ),
      set('policyNumber', 'data.policyNumber'),
    ],
  }),
  step({
    name: "Download Sophie's certificate of insurance",
    operationId: 'getOrderCertificate',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    mediaType: 'application/pdf',
    checks: [
      check(
        'a PDF named after the policy',
        "pm.expect(pm.response.headers.get('Content-Type')).to.include('application/pdf'); pm.expect(pm.response.headers.get('Content-Disposition')).to.equal('attachment; filename=\"' + pm.collectionVariables.get('policyNumber') + '.pdf\"'); pm.expect(pm.response.text().startsWith('%PDF-')).to.be.true;",
      ),
    ],
  }),
  step({
    name: 'Pay the group in one payment, by wallet',
    operationId: 'payGroup',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: { gateway: 'wallet_gateway', returnUrl: 'https://booking.himalayantrails.example.com/payments/complete' },
    checks: [
      check(
        'one attempt for both orders of the group',
        'pm.expect(data.paymentUrl).to.match(/^https?:\\/\\//); pm.expect(data.amount).to.be.above(0);',
      ),
      set('groupPaymentRef', 'data.paymentRef'),
      set('groupAmount', 'data.amount'),
    ],
  }),
  step({
    name: "The group's customer pays (sandbox helper)",
    operationId: 'setSandboxPaymentOutcome',
    status: 200,
    pathParams: { paymentRef: '{{groupPaymentRef}}' },
    body: { outcome: 'CAPTURED' },
    checks: [
      check(
        "the group payment paid its first order, Daniel's, with its policy number",
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentRef: pm.collectionVariables.get('groupPaymentRef'), groupRef: pm.collectionVariables.get('groupRef') }); pm.expect(data.groupAmount).to.be.closeTo(Number(pm.collectionVariables.get('groupAmount')), 0.001); pm.expect(data.policyNumber).to.match(/^(SBX-)?POL-\\d{4}-\\d+$/);",
      ),
    ],
  }),
  step({
    name: "Mei Lin's order is paid by the same payment",
    operationId: 'getPaymentStatus',
    status: 200,
    pathParams: { orderRef: '{{meilinOrderRef}}' },
    checks: [
      check(
        'her share of the group payment paid her order',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('meilinOrderRef'), orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentRef: pm.collectionVariables.get('groupPaymentRef'), groupRef: pm.collectionVariables.get('groupRef') }); pm.expect(data.policyNumber).to.match(/^(SBX-)?POL-\\d{4}-\\d+$/);",
      ),
      set('meilinTotal', 'data.amount'),
    ],
  }),
];

// After the sale: Sophie changes her mind within the free look and gets everything back; Daniel's
// trek moves a week; then, on the test clock 20 days after the payments, Mei Lin cancels past the
// free look (the fee is kept) and the provider refuses her refund; the group is then extended by
// one top-up, Mei Lin's cancelled order skipped. The clock is removed at the end, so the next run
// starts on the real date.
const afterTheSale = [
  step({
    name: 'Sophie changes her mind: preview cancelling her paid order',
    operationId: 'previewOrderCancellation',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    checks: [
      check(
        'within the free look: everything goes back, no fee',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), cancellable: true, rule: 'FREE_LOOK', cancellationFee: 0 }); pm.expect(data.refundAmount).to.be.closeTo(Number(pm.collectionVariables.get('orderTotal')), 0.001);",
      ),
    ],
  }),
  step({
    name: 'Cancel her order',
    operationId: 'cancelOrder',
    status: 200,
    pathParams: { orderRef: '{{orderRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: { reason: 'TRAVELLER_REQUEST', note: 'Changed her plans' },
    checks: [
      check(
        'cancelled with a refund of the whole payment',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('orderRef'), orderStatus: 'CANCELLED', reason: 'TRAVELLER_REQUEST' }); pm.expect(data.refund.amount).to.be.closeTo(Number(pm.collectionVariables.get('orderTotal')), 0.001); pm.expect(data.refund.cancellationFee).to.equal(0);",
      ),
      set('refundRef', 'data.refund.refundRef'),
    ],
  }),
  step({
    name: 'Read her refund by its reference',
    operationId: 'getRefund',
    status: 200,
    pathParams: { refundRef: '{{refundRef}}' },
    checks: [
      // A sandbox card refund waits PENDING until POST /sandbox/refunds/{refundRef}/outcome decides it.
      check(
        'the refund of her cancellation, of her payment, on its way',
        "pm.expect(data).to.include({ refundRef: pm.collectionVariables.get('refundRef'), orderRef: pm.collectionVariables.get('orderRef'), paymentRef: pm.collectionVariables.get('paymentRef'), cause: 'CANCELLATION', cancellationFee: 0, status: 'PENDING' });",
      ),
    ],
  }),
  step({
    name: "Move Daniel's trek a week later: the Lukla flights are late",
    operationId: 'updateOrder',
    status: 200,
    pathParams: { orderRef: '{{danielOrderRef}}' },
    body: { departureDate: '{{laterDepartureDate}}' },
    checks: [
      check(
        'the cover window starts on the new date and keeps its length',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), departureDate: pm.collectionVariables.get('laterDepartureDate'), coverageStartDate: pm.collectionVariables.get('laterDepartureDate') }); pm.expect((Date.parse(data.coverageEndDate) - Date.parse(data.coverageStartDate)) / 86400000 + 1).to.equal(data.durationDays);",
      ),
      check(
        'the price did not change, and the change is dated',
        "pm.expect(data.pricing.totalAmount).to.be.closeTo(Number(pm.collectionVariables.get('danielTotal')) * 0.9, 0.01); pm.expect(data.amendedAt).to.be.a('string');",
      ),
    ],
  }),
  step({
    name: "Daniel's trek will run long: preview extending his cover by 3 days",
    operationId: 'previewOrderExtension',
    status: 200,
    pathParams: { orderRef: '{{danielOrderRef}}' },
    body: { extraDays: 3 },
    checks: [
      check(
        'allowed, with the new end and what it adds to what was paid',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), allowed: true }); pm.expect(data.amountDue).to.be.above(0); pm.expect(data.refusal).to.equal(null);",
      ),
    ],
  }),
  step({
    name: 'Extend his cover by 3 days: an amendment awaiting its top-up',
    operationId: 'extendOrder',
    status: 200,
    pathParams: { orderRef: '{{danielOrderRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: {
      extraDays: 3,
      gateway: 'card_gateway',
      returnUrl: 'https://booking.himalayantrails.example.com/payments/complete',
    },
    checks: [
      check(
        'the extension awaits its top-up, with the checkout to send the customer to',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), status: 'AWAITING_PAYMENT' }); pm.expect(data.paymentUrl).to.match(/^https?:\\/\\//);",
      ),
      set('topUpRef', 'data.paymentRef'),
      set('extendedEnd', 'data.coverageEndDate'),
    ],
  }),
  step({
    name: 'The customer pays the top-up (sandbox helper)',
    operationId: 'setSandboxPaymentOutcome',
    status: 200,
    pathParams: { paymentRef: '{{topUpRef}}' },
    body: { outcome: 'CAPTURED' },
    checks: [
      check(
        "the payment-status of Daniel's order still reports the group payment, and lists the top-up as paid",
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), orderStatus: 'PAID', paymentRef: pm.collectionVariables.get('groupPaymentRef') }); pm.expect(data.topUps[0]).to.include({ paymentRef: pm.collectionVariables.get('topUpRef'), paymentStatus: 'SUCCESS' });",
      ),
    ],
  }),
  step({
    name: 'Set the test clock 20 days after the payments (sandbox helper)',
    operationId: 'setSandboxClock',
    status: 200,
    body: { today: '{{clockToday}}' },
    checks: [
      check(
        'your requests now read that date as today, and say so',
        "pm.expect(data.today).to.equal(pm.collectionVariables.get('clockToday')); pm.expect(data.realToday < data.today).to.be.true; pm.expect(pm.response.headers.get('Sandbox-Today')).to.equal(data.today);",
      ),
    ],
  }),
  step({
    name: 'Mei Lin cannot come: preview cancelling her order of the group',
    operationId: 'previewOrderCancellation',
    status: 200,
    pathParams: { orderRef: '{{meilinOrderRef}}' },
    checks: [
      check(
        'past the 14-day free look: 10 % of her share is kept',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('meilinOrderRef'), cancellable: true, rule: 'CANCELLATION_FEE' }); const share = Number(pm.collectionVariables.get('meilinTotal')); pm.expect(data.feeBase).to.be.above(0); pm.expect(data.feeBase).to.be.at.most(share); pm.expect(data.cancellationFee).to.be.closeTo(Math.floor(data.feeBase * 10) / 100, 0.011); pm.expect(data.refundAmount + data.cancellationFee).to.be.closeTo(share, 0.001);",
      ),
      set('meilinFee', 'data.cancellationFee'),
    ],
  }),
  step({
    name: 'Cancel her order (the rest of the group stays)',
    operationId: 'cancelOrder',
    status: 200,
    pathParams: { orderRef: '{{meilinOrderRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: { reason: 'TRAVELLER_REQUEST', note: 'Visa not granted in time' },
    checks: [
      check(
        'cancelled with the fee kept, as previewed',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('meilinOrderRef'), orderStatus: 'CANCELLED', reason: 'TRAVELLER_REQUEST' }); pm.expect(data.refund.cancellationFee).to.be.closeTo(Number(pm.collectionVariables.get('meilinFee')), 0.001);",
      ),
      // A wallet refund waits for its provider's answer (the operator's, outside the sandbox).
      check('her refund waits for the provider', "pm.expect(['PENDING', 'MANUAL']).to.include(data.refund.status);"),
      set('meilinRefundRef', 'data.refund.refundRef'),
    ],
  }),
  step({
    name: 'The provider refuses her refund (sandbox helper)',
    operationId: 'setSandboxRefundOutcome',
    status: 200,
    pathParams: { refundRef: '{{meilinRefundRef}}' },
    body: { outcome: 'FAILED' },
    checks: [
      check(
        'the refund is FAILED, and final',
        "pm.expect(data).to.include({ refundRef: pm.collectionVariables.get('meilinRefundRef'), orderRef: pm.collectionVariables.get('meilinOrderRef'), status: 'FAILED', cause: 'CANCELLATION' }); pm.expect(data.completedAt).to.be.a('string');",
      ),
    ],
  }),
  step({
    name: 'Her refunds: the one that failed',
    operationId: 'listRefunds',
    status: 200,
    query: { orderRef: '{{meilinOrderRef}}' },
    checks: [
      check(
        'one refund, FAILED, with the fee kept',
        "pm.expect(data.totalElements).to.equal(1); pm.expect(data.content[0]).to.include({ refundRef: pm.collectionVariables.get('meilinRefundRef'), status: 'FAILED' }); pm.expect(data.content[0].cancellationFee).to.be.closeTo(Number(pm.collectionVariables.get('meilinFee')), 0.001);",
      ),
    ],
  }),
  step({
    name: "The group's trek runs long: preview extending every member still covered by 2 days",
    operationId: 'previewGroupExtension',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    body: { extraDays: 2 },
    checks: [
      check(
        "allowed for Daniel alone: Mei Lin's cancelled order is skipped, and said so",
        "pm.expect(data).to.include({ groupRef: pm.collectionVariables.get('groupRef'), allowed: true }); pm.expect(data.members.map((m) => m.orderRef)).to.eql([pm.collectionVariables.get('danielOrderRef')]); pm.expect(data.skipped).to.eql([{ orderRef: pm.collectionVariables.get('meilinOrderRef'), status: 'CANCELLED', reason: 'ORDER_CANCELLED' }]); pm.expect(data.amountDue).to.be.closeTo(data.members[0].amountDue, 0.001);",
      ),
    ],
  }),
  step({
    name: 'Extend the group by 2 days: one top-up for every member',
    operationId: 'extendGroup',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: {
      extraDays: 2,
      gateway: 'card_gateway',
      returnUrl: 'https://booking.himalayantrails.example.com/payments/complete',
    },
    checks: [
      check(
        "each member's extension awaits the one top-up, its share the member's amount due",
        "pm.expect(data).to.include({ groupRef: pm.collectionVariables.get('groupRef'), status: 'AWAITING_PAYMENT' }); pm.expect(data.paymentUrl).to.match(/^https?:\\/\\//); pm.expect(data.members.every((m) => m.paymentRef === data.paymentRef && m.status === 'AWAITING_PAYMENT')).to.be.true; pm.expect(data.members.reduce((sum, m) => sum + m.amountDue, 0)).to.be.closeTo(data.amountDue, 0.001);",
      ),
      set('groupTopUpRef', 'data.paymentRef'),
    ],
  }),
  step({
    name: "The customer pays the group's top-up (sandbox helper)",
    operationId: 'setSandboxPaymentOutcome',
    status: 200,
    pathParams: { paymentRef: '{{groupTopUpRef}}' },
    body: { outcome: 'CAPTURED' },
    checks: [
      check(
        "Daniel's payment-status lists his share of the group's top-up as paid",
        "pm.expect(data.orderRef).to.equal(pm.collectionVariables.get('danielOrderRef')); pm.expect(data.topUps.find((t) => t.paymentRef === pm.collectionVariables.get('groupTopUpRef'))).to.include({ paymentStatus: 'SUCCESS' });",
      ),
    ],
  }),
  step({
    name: 'Back to the real clock (sandbox helper)',
    operationId: 'deleteSandboxClock',
    status: 200,
    checks: [
      check(
        'no test clock any more: the next run starts on the real date',
        "pm.expect(data.today).to.equal(null); pm.expect(pm.response.headers.get('Sandbox-Today')).to.equal(undefined);",
      ),
    ],
  }),
];

const orderBook = [
  step({
    name: "Your order book: find Sophie's order by its reference",
    operationId: 'listOrders',
    status: 200,
    query: { search: '{{orderRef}}' },
    checks: [
      check(
        'exactly the order paid and cancelled, yours to act on, its payment being refunded or refunded',
        "pm.expect(data.totalElements).to.equal(1); pm.expect(data.content[0]).to.include({ orderRef: pm.collectionVariables.get('orderRef'), access: 'OWNER', status: 'CANCELLED' }); pm.expect(data.content[0].paymentStatus).to.equal('REFUND_PENDING');",
      ),
    ],
  }),
  step({
    name: "Your order book: the group's orders, newest first",
    operationId: 'listOrders',
    status: 200,
    query: { groupRef: '{{groupRef}}', size: 20 },
    checks: [
      check(
        'both orders of the group, newest first',
        "pm.expect(data.totalElements).to.equal(2); pm.expect(data.content.every((o) => o.groupRef === pm.collectionVariables.get('groupRef'))).to.be.true; pm.expect(data.content[0].createdAt >= data.content[1].createdAt).to.be.true;",
      ),
    ],
  }),
  step({
    name: 'Export the group as CSV for the accountant',
    operationId: 'listOrders',
    status: 200,
    query: { groupRef: '{{groupRef}}' },
    headers: { Accept: 'text/csv' },
    mediaType: 'text/csv',
    checks: [
      check(
        'a CSV attachment: the header row and one row per order',
        "pm.expect(pm.response.headers.get('Content-Type')).to.include('text/csv'); pm.expect(pm.response.headers.get('Content-Disposition')).to.match(/^attachment; filename=\"orders-\\d{4}-\\d{2}-\\d{2}\\.csv\"$/); const lines = pm.response.text().split('\\r\\n'); pm.expect(lines[0]).to.match(/^orderRef,orderNumber,status,/); pm.expect(lines).to.have.length(4); pm.expect(lines[3]).to.equal('');",
      ),
    ],
  }),
  step({
    name: 'The group: its orders and where its payment stands',
    operationId: 'getOrderGroup',
    status: 200,
    pathParams: { groupRef: '{{groupRef}}' },
    checks: [
      check(
        "both orders in reference order, Mei Lin's cancelled",
        "pm.expect(data.orders.map((o) => o.orderRef)).to.eql([pm.collectionVariables.get('danielOrderRef'), pm.collectionVariables.get('meilinOrderRef')]); pm.expect(data.orders[1].status).to.equal('CANCELLED');",
      ),
      check(
        'paid by the one group payment: both orders paid, nothing outstanding',
        "pm.expect(data.payment).to.include({ status: 'PAID', paidOrders: 2, pendingOrders: 0, outstandingAmount: 0 }); pm.expect(data.payment.latestGroupPayment.paymentRef).to.equal(pm.collectionVariables.get('groupPaymentRef')); pm.expect(data.orders[0].status).to.equal('PAID');",
      ),
    ],
  }),
];

// Receiving webhooks: register an endpoint (its secret shown once), queue a test event, have the
// sandbox send it a refund.failed about Mei Lin's order, read the delivery log, and delete the
// endpoint again (a company has at most 5, and the story is re-run).
const webhooks = [
  step({
    name: 'Register a webhook endpoint',
    operationId: 'createWebhookEndpoint',
    status: 201,
    body: {
      url: 'https://hooks.everest-trails.example.com/pbs/webhooks',
      events: ['order.paid', 'payment.failed', 'refund.failed'],
      description: 'Postman story {{runId}}',
    },
    checks: [
      check(
        'the secret is shown, once',
        'pm.expect(data.secret).to.match(/^whsec_/); pm.expect(data.enabled).to.be.true;',
      ),
      set('endpointId', 'data.endpointId'),
    ],
  }),
  step({
    name: 'Send the endpoint a test event',
    operationId: 'testWebhookEndpoint',
    status: 202,
    pathParams: { endpointId: '{{endpointId}}' },
    checks: [
      check(
        'a webhook.test delivery to this endpoint is queued',
        "pm.expect(data.eventType).to.equal('webhook.test'); pm.expect(data.endpointId).to.equal(pm.collectionVariables.get('endpointId')); pm.expect(data.status).to.equal('PENDING');",
      ),
      set('deliveryId', 'data.deliveryId'),
    ],
  }),
  step({
    name: "Send it a refund.failed about Mei Lin's order (sandbox helper)",
    operationId: 'sendSandboxEvent',
    status: 202,
    body: { type: 'refund.failed', orderRef: '{{meilinOrderRef}}' },
    checks: [
      check(
        'the event is recorded and queued',
        "pm.expect(data.type).to.equal('refund.failed'); pm.expect(data.eventId).to.match(/^evt_[0-9a-f]{32}$/);",
      ),
      set('sandboxEventId', 'data.eventId'),
    ],
  }),
  step({
    name: 'Read the delivery log of the endpoint',
    operationId: 'listWebhookDeliveries',
    status: 200,
    query: { endpointId: '{{endpointId}}' },
    // The relay fans a recorded event out to its endpoints within moments: wait for it (5 s at most).
    prerequest: [
      "const wanted = pm.collectionVariables.get('sandboxEventId');",
      `const url = pm.variables.replaceIn('{{baseUrl}}${operations.get('listWebhookDeliveries').path}?endpointId={{endpointId}}');`,
      "const poll = (left) => pm.sendRequest({ url, header: { Authorization: 'Bearer ' + pm.environment.get('accessToken') } }, (error, response) => {",
      '  const listed = !error && response.code === 200 && response.json().data.content.some((d) => d.eventId === wanted);',
      '  if (!listed && left > 0) setTimeout(() => poll(left - 1), 250);',
      '});',
      'poll(20);',
    ],
    checks: [
      check(
        'the test delivery is in the log, with its tries so far',
        "const d = data.content.find((x) => x.deliveryId === pm.collectionVariables.get('deliveryId')); pm.expect(d, JSON.stringify(data.content)).to.be.an('object'); pm.expect(d.tries).to.be.an('array');",
      ),
      check(
        'the refund.failed the sandbox sent is in the log too',
        "const d = data.content.find((x) => x.eventId === pm.collectionVariables.get('sandboxEventId')); pm.expect(d, JSON.stringify(data.content)).to.be.an('object'); pm.expect(d).to.include({ eventType: 'refund.failed', endpointId: pm.collectionVariables.get('endpointId') });",
      ),
    ],
  }),
  step({
    name: 'Delete the webhook endpoint',
    operationId: 'deleteWebhookEndpoint',
    status: 200,
    pathParams: { endpointId: '{{endpointId}}' },
    checks: [
      check(
        'the endpoint deleted is the one registered',
        "pm.expect(data.endpointId).to.equal(pm.collectionVariables.get('endpointId'));",
      ),
    ],
  }),
];

// After the trek: on the test clock the day after Daniel's (moved) cover starts, his altitude
// sickness is treated at the Pheriche aid post. The partner files the USD invoice, the sandbox
// claims desk asks for more, the partner answers, the desk approves at its sandbox rate and pays;
// the partner finds the claim under the order and in the CSV export. The clock is removed at the end.
const claims = [
  step({
    name: "Set the test clock to the day after Daniel's cover starts (sandbox helper)",
    operationId: 'setSandboxClock',
    status: 200,
    body: { today: '{{claimDay}}' },
    checks: [
      check(
        'your requests now read that date as today',
        "pm.expect(data.today).to.equal(pm.collectionVariables.get('claimDay'));",
      ),
    ],
  }),
  step({
    name: "File Daniel's claim: treated for altitude sickness, invoiced in USD",
    operationId: 'fileClaim',
    status: 201,
    pathParams: { orderRef: '{{danielOrderRef}}' },
    headers: { 'Idempotency-Key': '{{$guid}}' },
    body: {
      claimType: 'MEDICAL_EXPENSES',
      incidentDate: '{{claimDay}}',
      incidentDescription: 'Acute mountain sickness, treated at the Pheriche aid post',
      location: 'Pheriche',
      payee: { type: 'TRAVELLER' },
      items: [
        {
          description: 'Treatment and oxygen',
          amount: 420,
          currency: 'USD',
          invoiceNumber: 'PAP-{{runId}}',
          providerName: 'Pheriche Aid Post',
        },
      ],
    },
    checks: [
      check(
        'filed SUBMITTED on his order, the currency flagged, the invoice still to send',
        "pm.expect(data).to.include({ orderRef: pm.collectionVariables.get('danielOrderRef'), status: 'SUBMITTED', claimType: 'MEDICAL_EXPENSES' }); pm.expect(data.claimRef).to.match(/^CLM-\\d{4}-\\d+$/); pm.expect(data.flags).to.include('CURRENCY_CONVERSION'); pm.expect(data.documentsNeeded).to.include('INVOICE');",
      ),
      set('claimRef', 'data.claimRef'),
    ],
  }),
  step({
    name: 'The desk asks for the medical report (sandbox helper)',
    operationId: 'setSandboxClaimDecision',
    status: 200,
    pathParams: { claimRef: '{{claimRef}}' },
    body: { decision: 'INFORMATION_REQUESTED', note: "Send the aid post's medical report" },
    checks: [
      check(
        'the claim waits for the partner',
        "pm.expect(data).to.include({ claimRef: pm.collectionVariables.get('claimRef'), status: 'INFORMATION_REQUESTED' });",
      ),
    ],
  }),
  step({
    name: 'Answer the desk',
    operationId: 'answerClaimInformationRequest',
    status: 200,
    pathParams: { claimRef: '{{claimRef}}' },
    body: { note: 'The aid post sends its report to the desk by email today' },
    checks: [
      check(
        'the claim is back with the desk, the answer in its timeline',
        "pm.expect(data.status).to.equal('UNDER_ASSESSMENT'); const last = data.timeline[data.timeline.length - 1]; pm.expect(last).to.include({ by: 'PARTNER', status: 'UNDER_ASSESSMENT' });",
      ),
    ],
  }),
  step({
    name: 'The desk approves it at its rate (sandbox helper)',
    operationId: 'setSandboxClaimDecision',
    status: 200,
    pathParams: { claimRef: '{{claimRef}}' },
    body: { decision: 'APPROVED' },
    checks: [
      check(
        'the USD item converted at the recorded rate and date, the excess taken once',
        "pm.expect(data.status).to.equal('APPROVED'); const decision = data.items[0].decision; pm.expect(decision.exchangeRate).to.equal('133.5000'); pm.expect(decision.rateDate).to.be.a('string'); pm.expect(decision.approvedNpr).to.be.closeTo(420 * 133.5, 0.001); pm.expect(data.decision.approvedTotal).to.be.closeTo(decision.approvedNpr - data.decision.excessApplied, 0.001);",
      ),
      set('claimApproved', 'data.decision.approvedTotal'),
    ],
  }),
  step({
    name: 'The insurer pays it (sandbox helper)',
    operationId: 'setSandboxClaimDecision',
    status: 200,
    pathParams: { claimRef: '{{claimRef}}' },
    body: { decision: 'PAID' },
    checks: [
      check(
        'paid: what was approved, in NPR, with its reference',
        "pm.expect(data.status).to.equal('PAID'); pm.expect(data.payout.amount).to.be.closeTo(Number(pm.collectionVariables.get('claimApproved')), 0.001); pm.expect(data.payout.currency).to.equal('NPR'); pm.expect(data.payout.reference).to.be.a('string');",
      ),
    ],
  }),
  step({
    name: "The claims on Daniel's order",
    operationId: 'listClaims',
    status: 200,
    query: { orderRef: '{{danielOrderRef}}' },
    checks: [
      check(
        'his claim, paid',
        "const his = data.content.find((claim) => claim.claimRef === pm.collectionVariables.get('claimRef')); pm.expect(his).to.be.an('object'); pm.expect(his.status).to.equal('PAID');",
      ),
    ],
  }),
  step({
    name: 'Export the paid claims as CSV',
    operationId: 'listClaims',
    status: 200,
    query: { status: 'PAID' },
    headers: { Accept: 'text/csv' },
    mediaType: 'text/csv',
    checks: [
      check(
        'a CSV with its header and his claim',
        "const text = pm.response.text(); pm.expect(text.split('\\r\\n')[0]).to.match(/^claimRef,orderRef,policyNumber,claimType,status,/); pm.expect(text).to.include(pm.collectionVariables.get('claimRef') + ',' + pm.collectionVariables.get('danielOrderRef'));",
      ),
      check(
        'a file to save, named after the day',
        'pm.expect(pm.response.headers.get(\'Content-Disposition\')).to.match(/^attachment; filename="claims-\\d{4}-\\d{2}-\\d{2}\\.csv"$/);',
      ),
    ],
  }),
  step({
    name: 'Back to the real clock after the claim (sandbox helper)',
    operationId: 'deleteSandboxClock',
    status: 200,
    checks: [
      check(
        'no test clock any more',
        "pm.expect(data.today).to.equal(null); pm.expect(pm.response.headers.get('Sandbox-Today')).to.equal(undefined);",
      ),
    ],
  }),
];

// Catching up without webhooks: the events of the story, with the payload as delivered.
const events = [
  step({
    name: "The order.cancelled events, newest first: Mei Lin's is there",
    operationId: 'listEvents',
    status: 200,
    query: { type: 'order.cancelled', size: 100 },
    checks: [
      "const hers = data.content.find((e) => e.payload.data.orderRef === pm.collectionVariables.get('meilinOrderRef'));",
      check(
        'her cancellation was announced, with its payload as delivered',
        "pm.expect(hers, JSON.stringify(data.content.map((e) => e.payload.data))).to.be.an('object'); pm.expect(hers.payload.type).to.equal('order.cancelled');",
      ),
      "if (hers) pm.collectionVariables.set('eventId', hers.eventId);",
    ],
  }),
  step({
    name: 'Read that event again by its id',
    operationId: 'getEvent',
    status: 200,
    pathParams: { eventId: '{{eventId}}' },
    checks: [
      check(
        'the same event, the same payload',
        "pm.expect(data.eventId).to.equal(pm.collectionVariables.get('eventId')); pm.expect(data.payload.id).to.equal(data.eventId);",
      ),
    ],
  }),
];

const FOLDERS = [
  {
    name: 'Booking',
    description: 'A token, the catalogue, a quote, documents and travellers, one order and a group, promo codes.',
    item: booking,
  },
  {
    name: 'Payment',
    description:
      'Start a hosted checkout, have the customer pay it through the sandbox helper, read the payment status (PAID, with the policy number), download the certificate; pay the group the same way.',
    item: payment,
  },
  {
    name: 'After the sale',
    description:
      'A cancellation in the free look and its refund; a date change; on the test clock 20 days later, a cancellation with the fee and a refund the provider refuses; the real clock again.',
    item: afterTheSale,
  },
  {
    name: 'Claims',
    description:
      "After the trek: on the test clock, Daniel's claim for a USD invoice is filed, the sandbox desk asks for more and is answered, approves it at its rate and pays it; the claim under the order and in the CSV export; the real clock again.",
    item: claims,
  },
  {
    name: 'Order book',
    description: 'Find orders, export them as CSV, read a group and its payment.',
    item: orderBook,
  },
  {
    name: 'Webhooks',
    description:
      'Register an endpoint, send it a test event and a refund.failed through the sandbox helper, read the delivery log, delete it.',
    item: webhooks,
  },
  { name: 'Events', description: 'Catch up without webhooks: the events, with their payloads.', item: events },
];
const requestCount = FOLDERS.reduce((total, folder) => total + folder.item.length, 0);

const collection = {
  info: {
    name: `${document.info.title}: the booking flow`,
    description:
      'Generated from generated/openapi.json by `npm run postman`; do not edit by hand. Select the "Sandbox" environment and run the collection from top to bottom, folder after folder: each request uses what the previous ones answered (the uploads read postman/*.png: run it from the repository root).',
    schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
  },
  auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
  variable: [],
  event: [
    {
      listen: 'prerequest',
      script: {
        type: 'text/javascript',
        exec: [
          // A departure 30 days ahead in Kathmandu (and the week later a trek moves to), the test clock's date, and one run id that keeps this run's travellers apart.
          "if (!pm.collectionVariables.get('runId')) {",
          '  const ahead = new Date(Date.now() + (5 * 60 + 45) * 60000 + 30 * 86400000);',
          "  pm.collectionVariables.set('departureDate', ahead.toISOString().slice(0, 10));",
          "  pm.collectionVariables.set('runId', String(Date.now()));",
          "  pm.collectionVariables.set('laterDepartureDate', new Date(ahead.getTime() + 7 * 86400000).toISOString().slice(0, 10));",
          // The test clock: 20 days after today's payments, past the 14-day free look and 10 days before the departure.
          "  pm.collectionVariables.set('clockToday', new Date(ahead.getTime() - 10 * 86400000).toISOString().slice(0, 10));",
          // The day of Daniel's claim: the second day of his cover, moved a week later.
          "  pm.collectionVariables.set('claimDay', new Date(ahead.getTime() + 8 * 86400000).toISOString().slice(0, 10));",
          '}',
        ],
      },
    },
  ],
  item: FOLDERS,
};

const environment = {
  name: 'Sandbox',
  values: [
    { key: 'baseUrl', value: 'http://localhost:3000', type: 'default', enabled: true },
    { key: 'clientId', value: 'demo-everest-trails', type: 'default', enabled: true },
    { key: 'clientSecret', value: 'sandbox-secret-everest-trails', type: 'secret', enabled: true },
    { key: 'accessToken', value: '', type: 'secret', enabled: true },
  ],
  _postman_variable_scope: 'environment',
};

fs.mkdirSync(OUT, { recursive: true });
for (const documentType of DOCUMENT_TYPES) fs.writeFileSync(path.join(OUT, `${documentType.toLowerCase()}.png`), PNG);
fs.writeFileSync(path.join(OUT, 'collection.json'), `${json(collection)}\n`);
fs.writeFileSync(path.join(OUT, 'sandbox.postman_environment.json'), `${json(environment)}\n`);
console.log(
  `postman/collection.json (${requestCount} requests in ${FOLDERS.length} folders) and postman/sandbox.postman_environment.json written`,
);
