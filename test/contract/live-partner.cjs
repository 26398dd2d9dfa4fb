// Live fixtures for the Dredd hooks: a sandbox partner that signs in and builds real records
// through the public API (documents, travellers, quotes, orders, groups, payments), and pays
// through the sandbox gateway's hosted checkout the way a customer's browser would. The hooks
// put the identifiers of these records into the documented examples, because the examples can
// only name records that do not exist on a fresh server.
const { randomUUID } = require('node:crypto');

const API = '/api/external/v1';
// The smallest valid PNG: document uploads are sniffed from their bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const TEST_CARD_APPROVED = '4242424242424242';

/** A date `days` from now, far enough ahead that it is not in the past in Kathmandu either. */
function futureDate(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

let travellerSerial = 0;

class LivePartner {
  constructor(baseUrl, partner) {
    this.baseUrl = baseUrl;
    this.partner = partner;
    this.token = undefined;
    this.routeId = undefined;
  }

  /** Takes a token and finds the seeded Everest Base Camp route every fixture order uses. */
  async signIn() {
    const issued = await this.call('POST', `${API}/auth/token`, {
      body: { clientId: this.partner.clientId, clientSecret: this.partner.clientSecret },
    });
    this.token = issued.accessToken;
    const routes = await this.call('GET', `${API}/reference/routes?search=Everest%20Base%20Camp`);
    if (!routes.content?.length) throw new Error('the seeded catalogue has no Everest Base Camp route');
    this.routeId = routes.content[0].routeId;
    return this;
  }

  /** The raw answer (status, headers and parsed body) of one API call with this partner's token. */
  async send(method, route, { body, form, headers = {} } = {}) {
    const response = await fetch(new URL(route, this.baseUrl), {
      method,
      headers: {
        ...(form ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  /** The `data` of a successful call; anything else stops the fixture with the server's answer. */
  async call(method, route, options) {
    const { status, body } = await this.send(method, route, options);
    if (status < 200 || status >= 300)
      throw new Error(`${this.partner.clientId}: ${method} ${route} answered ${status}: ${JSON.stringify(body)}`);
    return body.data;
  }

  async upload(documentType) {
    const form = new FormData();
    form.append('documentType', documentType);
    form.append('file', new Blob([PNG], { type: 'image/png' }), `${documentType.toLowerCase()}.png`);
    return (await this.call('POST', `${API}/documents`, { form })).documentId;
  }

  /** One registered traveller (34 years old at departure, inside every adult package's band). */
  async traveller() {
    travellerSerial += 1;
    const [avatarDocumentId, passportDocumentId, signatureDocumentId] = [
      await this.upload('AVATAR'),
      await this.upload('PASSPORT'),
      await this.upload('SIGNATURE'),
    ];
    const [traveller] = await this.call('POST', `${API}/travellers`, {
      body: [
        {
          email: `dredd.traveller${travellerSerial}@example.com`,
          name: 'Dredd Traveller',
          dateOfBirth: '1990-05-01',
          nationality: 'Germany',
          idType: 'PASSPORT',
          idNumber: `C${Date.now()}${travellerSerial}`,
          gender: 'MALE',
          phone: '+49 30 1234567',
          emergencyContactName: 'Jonas Keller',
          emergencyContactPhone: '+49 30 7654321',
          emergencyContactEmail: 'jonas@example.com',
          emergencyContactRelation: 'Brother',
          avatarDocumentId,
          passportDocumentId,
          signatureDocumentId,
        },
      ],
    });
    return traveller.touristId;
  }

  /** A 16-day Everest Base Camp quote for one 34-year-old, a month ahead. */
  quote() {
    return this.call('POST', `${API}/reference/quote`, {
      body: { nationality: 'Germany', ages: [34], startDate: futureDate(30), duration: 16, routeId: this.routeId },
    });
  }

  /** The fields of an order request that must name live records: a new traveller and a new quote. */
  async orderInput() {
    const [touristId, quote] = [await this.traveller(), await this.quote()];
    return {
      touristId,
      ctgId: quote.ctgId,
      routeId: this.routeId,
      departureDate: quote.startDate,
      quoteId: quote.quoteId,
    };
  }

  async order(extra = {}) {
    return this.call('POST', `${API}/orders`, { body: { ...(await this.orderInput()), ...extra } });
  }

  /** An order group of `size` orders. */
  async group(size = 2) {
    const items = [];
    for (let i = 0; i < size; i += 1) items.push(await this.orderInput());
    return this.call('POST', `${API}/orders`, { body: items });
  }

  /** Starts a payment attempt of one order (`orders/{ref}/pay`) or a group (`orders/groups/{ref}/pay`). */
  pay(path, body = { gateway: 'card_gateway' }, key = randomUUID()) {
    return this.call('POST', `${API}/orders/${path}/pay`, { body, headers: { 'idempotency-key': key } });
  }

  /**
   * Pays an attempt on the sandbox card gateway's hosted page with the approving test card and
   * returns the signed callback URL the gateway sends the browser to (path and query), without
   * following it: the caller decides who delivers the callback.
   */
  async checkout(paymentUrl) {
    // Same page on the server under test (Dredd may reach it by another address), token included.
    const link = new URL(paymentUrl);
    const page = new URL(`${link.pathname}${link.search}`, this.baseUrl);
    const response = await fetch(page, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'pay', cardNumber: TEST_CARD_APPROVED, expiry: '12/30', cvc: '123' }),
      redirect: 'manual',
    });
    const location = response.headers.get('location');
    if (response.status !== 303 || !location) throw new Error(`sandbox checkout answered ${response.status}`);
    const callback = new URL(location);
    return `${callback.pathname}${callback.search}`;
  }

  /** Pays one order (or group) completely: attempt, hosted checkout, callback delivered. */
  async payInFull(path) {
    const attempt = await this.pay(path);
    const callback = await this.checkout(attempt.paymentUrl);
    const response = await fetch(new URL(callback, this.baseUrl), { redirect: 'manual' });
    if (response.status !== 200 && response.status !== 303)
      throw new Error(`payment callback answered ${response.status}`);
    return attempt;
  }
}

async function signedInPartner(baseUrl, partner) {
  return new LivePartner(baseUrl, partner).signIn();
}

/** Points a Dredd transaction at another path (and query) of the server. */
function onPath(transaction, fullPath) {
  transaction.fullPath = fullPath;
  transaction.request.uri = fullPath;
}

module.exports = { API, futureDate, signedInPartner, onPath };
