// Dredd hooks for claims (issue 48): each operation on live paid orders and claims of the first
// sandbox partner, another company's order (403), unknown references (404), an unpaid order and a
// withdrawn claim (400/409), and an invoice already claimed (409). A claim's incident must lie in
// its cover window and not after today, and a paid order's cover starts in the future: the
// partner's sandbox test clock is set to the cover's first day while a claim is filed, and unset
// again after each claim transaction, so no other transaction runs on it.
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const hooks = require('hooks');
const { API, signedInPartner, onPath } = require('./live-partner.cjs');
const { runScenarios } = require('./scenario-runner.cjs');

const root = path.resolve(__dirname, '../..');
const { DEMO_PARTNERS } = require(path.join(root, 'dist/src/modules/partners/demo-partners.js'));

const baseUrl = process.env.DREDD_BASE_URL;
const fixtures = { error: undefined };
const UNKNOWN_ORDER = 'ORD-2026-999999';
const UNKNOWN_CLAIM = 'CLM-2026-999999';
/** The invoice number of the documented request. */
const DOCUMENTED_INVOICE = 'PAP-2026-0193';

const filePath = (orderRef) => `${API}/orders/${encodeURIComponent(orderRef)}/claims`;
const claimPath = (claimRef, tail = '') => `${API}/claims/${encodeURIComponent(claimRef)}${tail}`;
const decisionPath = (claimRef) => `${API}/sandbox/claims/${encodeURIComponent(claimRef)}/decision`;

const claimBody = (incidentDate, invoiceNumber = `DREDD-${randomUUID()}`) => ({
  claimType: 'MEDICAL_EXPENSES',
  incidentDate,
  incidentDescription: 'Acute mountain sickness, treated at the Pheriche aid post',
  payee: { type: 'TRAVELLER' },
  items: [
    {
      description: 'Treatment and oxygen',
      amount: 420,
      currency: 'USD',
      invoiceNumber,
      providerName: 'Pheriche Aid Post',
    },
  ],
});

async function paidOrder(partner) {
  const order = await partner.order();
  await partner.payInFull(encodeURIComponent(order.orderRef));
  return order;
}

/** The caller's clock on the order's first day of cover (unset by the afterEach below). */
const onCoverStart = (order) =>
  fixtures.caller.call('PUT', `${API}/sandbox/clock`, { body: { today: order.coverageStartDate } });
const clockOff = () => fixtures.caller.send('DELETE', `${API}/sandbox/clock`);

/** A claim SUBMITTED on a paid order of its own, filed on the cover's first day. */
async function fileClaim(invoiceNumber) {
  const order = await paidOrder(fixtures.caller);
  await onCoverStart(order);
  try {
    return await fixtures.caller.call('POST', filePath(order.orderRef), {
      body: claimBody(order.coverageStartDate, invoiceNumber),
      headers: { 'idempotency-key': randomUUID() },
    });
  } finally {
    await clockOff();
  }
}

hooks.beforeAll((_transactions, done) => {
  (async () => {
    const [caller, other] = await Promise.all(
      [DEMO_PARTNERS[0], DEMO_PARTNERS[1]].map((partner) => signedInPartner(baseUrl, partner)),
    );
    fixtures.caller = caller;
    fixtures.unpaid = await caller.order();
    fixtures.othersOrder = await paidOrder(other);
    fixtures.open = await fileClaim(DOCUMENTED_INVOICE);
    fixtures.withdrawn = await fileClaim();
    await caller.call('POST', claimPath(fixtures.withdrawn.claimRef, '/withdrawal'), {
      body: { reason: 'Paid elsewhere' },
    });
  })().then(
    () => done(),
    (error) => {
      fixtures.error = `claim contract fixtures failed: ${error.message}`;
      done();
    },
  );
});

const withKey = (t) => {
  t.request.headers['Idempotency-Key'] = randomUUID();
};
const withIncident = (t, incidentDate) => {
  const body = JSON.parse(t.request.body);
  body.incidentDate = incidentDate;
  t.request.body = JSON.stringify(body);
};

const scenarios = {
  fileClaim: {
    201: async (t) => {
      const order = await paidOrder(fixtures.caller);
      await onCoverStart(order);
      withKey(t);
      withIncident(t, order.coverageStartDate);
      onPath(t, filePath(order.orderRef));
    },
    400: (t) => {
      withKey(t);
      onPath(t, filePath(fixtures.unpaid.orderRef));
    },
    403: (t) => {
      withKey(t);
      onPath(t, filePath(fixtures.othersOrder.orderRef));
    },
    404: (t) => {
      withKey(t);
      onPath(t, filePath(UNKNOWN_ORDER));
    },
    // The documented invoice, already claimed by the open claim of the same order.
    409: async (t) => {
      await onCoverStart({ coverageStartDate: fixtures.open.incidentDate });
      withKey(t);
      withIncident(t, fixtures.open.incidentDate);
      onPath(t, filePath(fixtures.open.orderRef));
    },
  },
  listClaims: {
    // The JSON page without the example's filters; Content-Disposition is documented for the CSV form only.
    200: (t) => {
      onPath(t, `${API}/claims`);
      delete t.expected.headers['Content-Disposition'];
    },
    400: (t) => onPath(t, `${API}/claims?status=LOST`),
  },
  getClaim: {
    // The documented answer is an approved claim, with the desk's decision per item.
    200: async (t) => {
      const approved = await fileClaim();
      await fixtures.caller.call('POST', decisionPath(approved.claimRef), { body: { decision: 'APPROVED' } });
      onPath(t, claimPath(approved.claimRef));
    },
    404: (t) => onPath(t, claimPath(UNKNOWN_CLAIM)),
  },
  answerClaimInformationRequest: {
    200: async (t) => {
      const fresh = await fileClaim();
      await fixtures.caller.call('POST', decisionPath(fresh.claimRef), { body: { decision: 'INFORMATION_REQUESTED' } });
      const report = await fixtures.caller.upload('MEDICAL_REPORT');
      t.request.body = JSON.stringify({ note: 'The report is attached.', documentIds: [report] });
      onPath(t, claimPath(fresh.claimRef, '/information'));
    },
    400: (t) => {
      t.request.body = JSON.stringify({ note: 'Nothing was asked' });
      onPath(t, claimPath(fixtures.open.claimRef, '/information'));
    },
    404: (t) => onPath(t, claimPath(UNKNOWN_CLAIM, '/information')),
  },
  withdrawClaim: {
    200: async (t) => {
      const fresh = await fileClaim();
      onPath(t, claimPath(fresh.claimRef, '/withdrawal'));
    },
    400: (t) => onPath(t, claimPath(fixtures.withdrawn.claimRef, '/withdrawal')),
    404: (t) => onPath(t, claimPath(UNKNOWN_CLAIM, '/withdrawal')),
  },
  setSandboxClaimDecision: {
    200: async (t) => {
      const fresh = await fileClaim();
      onPath(t, decisionPath(fresh.claimRef));
      delete t.expected.headers['Sandbox-Today'];
    },
    404: (t) => onPath(t, decisionPath(UNKNOWN_CLAIM)),
    409: (t) => onPath(t, decisionPath(fixtures.withdrawn.claimRef)),
  },
};

runScenarios(hooks, scenarios, fixtures);

// Whatever the order Dredd runs them in, no transaction after a claim's runs on the clock a filing set.
hooks.afterEach((transaction, done) => {
  const claimTransaction =
    transaction.origin.resourceName.endsWith('/claims') || transaction.origin.resourceName.includes('/claims/');
  if (!claimTransaction || !fixtures.caller) return done();
  clockOff().then(
    () => done(),
    () => done(),
  );
});
