// Dredd hooks for createOrders, getOrder, updateOrder and the six promo operations (loaded after
// test/contract/hooks.cjs, whose beforeEach sets the token and skips every non-2xx it has no
// scenario for; these run later and decide for their own operations). Every scenario builds the
// live records it needs through the API just before its transaction (test/contract/live-partner.cjs),
// so each transaction meets exactly the state its documented response describes.
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const document = require(path.join(root, 'generated/openapi.json'));
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
// Everest Trails (travel agency) calls; Annapurna Adventure owns the "another company's" records;
// Summit Sales is the company whose promo rate limit the 429 transactions use up.
const [callerPartner, otherPartner, , throttledPartner] = DEMO_PARTNERS;
let caller;
let throttled;
const fixtures = { error: undefined };

// Demo promo codes of src/modules/promos/demo-promo-codes.ts (the spec's examples name them too). A code of one
// sales company fits any unbound order of a travel agency.
const COMPANY_CODE = 'HIMALAYA10';
const CREATION_CODE = 'SUMMIT500';
const EXPIRED_CODE = 'EXPIRED20';
const UNKNOWN_ORDER = 'ORD-2020-999999';
const UNKNOWN_GROUP = 'GRP-2020-999999';
// Dredd 14 cannot take the response schemas of an OpenAPI 3.1 document: it checks a response
// against the shape of its documented example (every key, each value's JSON type; schema checks
// are the API tests' job). The order read back is therefore created with every optional field
// the documented order carries, from the documented request example itself.
const LIVE_FIELDS = ['touristId', 'ctgId', 'routeId', 'departureDate', 'quoteId'];
const DOCUMENTED_ORDER = {
  ...Object.fromEntries(
    Object.entries(document.components.examples.OrderCreateSingle.value).filter(
      ([name]) => !LIVE_FIELDS.includes(name),
    ),
  ),
  promoCode: CREATION_CODE,
  addedDevices: [],
};

/** The date a week after a `YYYY-MM-DD` date. */
const weekAfter = (date) => new Date(Date.parse(`${date}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);

function editBody(transaction, edit) {
  const body = JSON.parse(transaction.request.body);
  edit(body);
  transaction.request.body = JSON.stringify(body);
}
const withToken = (transaction, partner) => {
  transaction.request.headers.Authorization = `Bearer ${partner.token}`;
};
const orderPath = (ref, suffix = '') => `${API}/orders/${encodeURIComponent(ref)}${suffix}`;
const groupPath = (ref, suffix = '') => `${API}/orders/groups/${encodeURIComponent(ref)}${suffix}`;
const promoBody = (transaction, code) => {
  transaction.request.body = JSON.stringify({ promoCode: code });
};

/**
 * Uses up the promo rate limit of the throttled company for the current window (a fixed window of
 * RATE_LIMIT_WINDOW_SECONDS), so that its next promo request is a 429. Close to the end of a
 * window it waits for the next one first, so the transaction cannot slip into a fresh window.
 */
async function exhaustPromoLimit() {
  const probe = () =>
    throttled.send('POST', orderPath(UNKNOWN_ORDER, '/promo/preview'), { body: { promoCode: COMPANY_CODE } });
  for (let round = 0; round < 3; round += 1) {
    let answer = await probe();
    while (answer.status !== 429) {
      if (answer.status !== 404) throw new Error(`promo probe answered ${answer.status}`);
      const burst = await Promise.all(Array.from({ length: 25 }, probe));
      answer = burst.find((reply) => reply.status === 429) ?? burst[0];
    }
    const retryAfter = Number(answer.headers.get('retry-after'));
    if (retryAfter >= 3) return;
    await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
  }
  throw new Error('could not use up the promo rate limit');
}

/** The example order body with the live records of a new traveller and quote. */
async function liveOrderBody(transaction, extra = {}) {
  const input = await caller.orderInput();
  editBody(transaction, (body) => Object.assign(body, input, extra));
  return input;
}

async function orderWithCode(code) {
  const order = await caller.order();
  await caller.call('POST', orderPath(order.orderRef, '/promo'), { body: { promoCode: code } });
  return order;
}

const forOrderPromo = (suffix) => ({
  200: async (t) => {
    onPath(t, orderPath((await caller.order()).orderRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
  // Expired, unknown, inactive, exhausted and wrong-owner codes all answer this same 400.
  400: async (t) => {
    onPath(t, orderPath((await caller.order()).orderRef, suffix));
    promoBody(t, EXPIRED_CODE);
  },
  403: async (t) => {
    onPath(t, orderPath(fixtures.othersOrder.orderRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
  404: async (t) => {
    onPath(t, orderPath(UNKNOWN_ORDER, suffix));
    promoBody(t, COMPANY_CODE);
  },
  429: async (t) => {
    await exhaustPromoLimit();
    withToken(t, throttled);
    onPath(t, orderPath(fixtures.throttledOrder.orderRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
});

const forGroupPromo = (suffix) => ({
  200: async (t) => {
    onPath(t, groupPath((await caller.group()).groupRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
  400: async (t) => {
    onPath(t, groupPath((await caller.group()).groupRef, suffix));
    promoBody(t, EXPIRED_CODE);
  },
  403: async (t) => {
    onPath(t, groupPath(fixtures.othersGroup.groupRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
  404: async (t) => {
    onPath(t, groupPath(UNKNOWN_GROUP, suffix));
    promoBody(t, COMPANY_CODE);
  },
  429: async (t) => {
    await exhaustPromoLimit();
    withToken(t, throttled);
    onPath(t, groupPath(fixtures.throttledGroup.groupRef, suffix));
    promoBody(t, COMPANY_CODE);
  },
});

const scenarios = {
  createOrders: {
    // The example's promo code becomes a demo code, so the answer carries an applied promo.
    201: (t) => liveOrderBody(t, { promoCode: CREATION_CODE }),
    // The example's route given twice (routeId and customRouteName) and three agencies in all.
    400: (t) =>
      liveOrderBody(t, {
        customRouteName: 'Everest Base Camp via Gokyo Lakes',
        customTravelAgencies: [{ name: 'Kathmandu Base Adventures' }, { name: 'Namche Trek Partners' }],
      }),
    // The example's touristId does not exist on the server.
    404: async (t) => {
      const { touristId } = JSON.parse(t.request.body);
      await liveOrderBody(t, { touristId });
    },
    409: async (t) => {
      const input = await liveOrderBody(t);
      await caller.call('POST', `${API}/orders`, { body: input });
    },
  },
  getOrder: {
    200: (t) => onPath(t, orderPath(fixtures.paidOrder.orderRef)),
    400: (t) => onPath(t, orderPath(fixtures.groupPayment.paymentRef)),
    403: (t) => onPath(t, orderPath(fixtures.othersOrder.orderRef)),
    404: (t) => onPath(t, orderPath(UNKNOWN_ORDER)),
  },
  updateOrder: {
    // A paid order of its own with every documented field, moved a week later: the amended detail.
    200: async (t) => {
      const order = await caller.order(DOCUMENTED_ORDER);
      await caller.payInFull(encodeURIComponent(order.orderRef));
      onPath(t, orderPath(order.orderRef));
      t.request.body = JSON.stringify({ departureDate: weekAfter(order.departureDate) });
    },
    // A field other than departureDate (the first documented 400).
    400: (t) => {
      onPath(t, orderPath(fixtures.paidOrder.orderRef));
      t.request.body = JSON.stringify({
        departureDate: weekAfter(fixtures.paidOrder.departureDate),
        routeId: fixtures.paidOrder.routeId,
      });
    },
    403: (t) => {
      onPath(t, orderPath(fixtures.othersOrder.orderRef));
      t.request.body = JSON.stringify({ departureDate: weekAfter(fixtures.othersOrder.departureDate) });
    },
    404: (t) => {
      onPath(t, orderPath(UNKNOWN_ORDER));
      t.request.body = JSON.stringify({ departureDate: weekAfter(fixtures.paidOrder.departureDate) });
    },
  },
  previewOrderPromo: forOrderPromo('/promo/preview'),
  applyOrderPromo: forOrderPromo('/promo'),
  removeOrderPromo: {
    200: async (t) =>
      onPath(t, `${orderPath((await orderWithCode(COMPANY_CODE)).orderRef, '/promo')}?code=${COMPANY_CODE}`),
    // A paid order's codes can no longer change.
    400: (t) => onPath(t, `${orderPath(fixtures.paidOrder.orderRef, '/promo')}?code=${COMPANY_CODE}`),
    403: (t) => onPath(t, `${orderPath(fixtures.othersOrder.orderRef, '/promo')}?code=${COMPANY_CODE}`),
    404: (t) => onPath(t, `${orderPath(UNKNOWN_ORDER, '/promo')}?code=${COMPANY_CODE}`),
    429: async (t) => {
      await exhaustPromoLimit();
      withToken(t, throttled);
      onPath(t, `${orderPath(fixtures.throttledOrder.orderRef, '/promo')}?code=${COMPANY_CODE}`);
    },
  },
  previewGroupPromo: forGroupPromo('/promo/preview'),
  applyGroupPromo: forGroupPromo('/promo'),
  removeGroupPromo: {
    200: async (t) => {
      const group = await caller.group();
      await caller.call('POST', groupPath(group.groupRef, '/promo'), { body: { promoCode: COMPANY_CODE } });
      onPath(t, `${groupPath(group.groupRef, '/promo')}?code=${COMPANY_CODE}`);
    },
    // A blank code is a rejection like any other (a group removal itself never fails per order).
    400: async (t) => onPath(t, `${groupPath((await caller.group()).groupRef, '/promo')}?code=`),
    403: (t) => onPath(t, `${groupPath(fixtures.othersGroup.groupRef, '/promo')}?code=${COMPANY_CODE}`),
    404: (t) => onPath(t, `${groupPath(UNKNOWN_GROUP, '/promo')}?code=${COMPANY_CODE}`),
    429: async (t) => {
      await exhaustPromoLimit();
      withToken(t, throttled);
      onPath(t, `${groupPath(fixtures.throttledGroup.groupRef, '/promo')}?code=${COMPANY_CODE}`);
    },
  },
};

hooks.beforeAll((_transactions, done) => {
  (async () => {
    let other;
    [caller, other, throttled] = await Promise.all(
      [callerPartner, otherPartner, throttledPartner].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.paidOrder = await caller.order(DOCUMENTED_ORDER);
    await caller.payInFull(encodeURIComponent(fixtures.paidOrder.orderRef));
    const paymentGroup = await caller.group();
    fixtures.groupPayment = await caller.pay(`groups/${encodeURIComponent(paymentGroup.groupRef)}`);
    fixtures.othersOrder = await other.order();
    fixtures.othersGroup = await other.group();
    fixtures.throttledOrder = await throttled.order();
    fixtures.throttledGroup = await throttled.group();
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `order contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

runScenarios(hooks, scenarios, fixtures);
