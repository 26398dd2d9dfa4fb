// Partners for the load benchmarks (booking-flow, order-create): companies with credentials written
// straight into the database (the operator's job, done with the CLI in real life), each of which
// then uploads documents and registers travellers over the API, as a partner does.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { issueClientSecret } = require('../dist/src/modules/auth/rules/credential-secret.js');

export const API = '/api/external/v1';
// The active routes of src/modules/catalogue/catalogue.yaml.
export const ROUTE_IDS = [
  '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
  '5e8a13c4-6f27-4b09-a1d8-3c7e90b2f564',
  '2b7f6d18-9e03-4c51-8a4e-f1c5b9d0367a',
];
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 72 72]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** `count` companies, half travel agencies (whose own company is injected into their orders), half sales companies. */
export async function createPartners(databaseUrl, count, label) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const partners = Array.from({ length: count }, (_, i) => {
      const { secret: clientSecret, secretHash } = issueClientSecret();
      return {
        index: i,
        companyId: randomUUID(),
        type: i % 2 === 0 ? 'TRAVEL_AGENCY' : 'SALES_COMPANY',
        clientId: `bench-${label}-${i}-${randomBytes(4).toString('hex')}`,
        clientSecret,
        secretHash,
        travellers: [],
        nextTraveller: 0,
      };
    });
    for (const p of partners) {
      await client.query(
        `insert into company (id, name, type, commission_percent, active, created_at) values ($1, $2, $3, '10.00', true, now())`,
        [p.companyId, `Bench ${label} ${p.index}`, p.type],
      );
      await client.query(
        `insert into credential (id, client_id, secret_hash, company_id, created_at) values ($1, $2, $3, $4, now())`,
        [randomUUID(), p.clientId, p.secretHash, p.companyId],
      );
    }
    return partners;
  } finally {
    await client.end();
  }
}

/** One setup call; anything but the expected status stops the benchmark. */
export async function call(url, init, expected) {
  const response = await fetch(url, init);
  const body = await response.json();
  if (response.status !== expected)
    throw new Error(`${init.method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function upload(baseUrl, token, documentType, bytes, fileName) {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([bytes]), fileName);
  return (
    await call(
      `${baseUrl}${API}/documents`,
      { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form },
      201,
    )
  ).documentId;
}

/** The partner takes a token (kept as partner.token), uploads three documents per traveller and registers them in one request. */
export async function registerTravellers(baseUrl, partner, travellersPerPartner) {
  const token = (
    await call(
      `${baseUrl}${API}/auth/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: partner.clientId, clientSecret: partner.clientSecret }),
      },
      200,
    )
  ).accessToken;
  partner.token = token;
  const items = [];
  for (let t = 0; t < travellersPerPartner; t++) {
    const [avatarDocumentId, passportDocumentId, signatureDocumentId] = await Promise.all([
      upload(baseUrl, token, 'AVATAR', PNG, 'avatar.png'),
      upload(baseUrl, token, 'PASSPORT', PDF, 'passport.pdf'),
      upload(baseUrl, token, 'SIGNATURE', PNG, 'signature.png'),
    ]);
    const n = partner.index * travellersPerPartner + t;
    items.push({
      email: `traveller.${n}@example.com`,
      name: `Traveller ${n}`,
      // Ages 25 to 59 at departure: every package the catalogue sells for the routes covers them.
      dateOfBirth: `${1967 + (n % 35)}-0${1 + (n % 9)}-1${n % 10}`,
      nationality: 'Germany',
      idType: 'PASSPORT',
      idNumber: `C${String(10000000 + n)}`,
      gender: n % 2 ? 'MALE' : 'FEMALE',
      phone: '+49 151 23456789',
      emergencyContactName: 'Lena Keller',
      emergencyContactPhone: '+49 151 98765432',
      emergencyContactEmail: 'lena.keller@example.com',
      emergencyContactRelation: 'Sister',
      avatarDocumentId,
      passportDocumentId,
      signatureDocumentId,
    });
  }
  const registered = await call(
    `${baseUrl}${API}/travellers`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    },
    201,
  );
  partner.travellers = registered.map((traveller, i) => ({
    touristId: traveller.touristId,
    dateOfBirth: items[i].dateOfBirth,
  }));
}

export async function inBatches(items, size, work) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Pays an order through the sandbox card checkout as its customer would: the pay call, the card form, the callback. */
export async function payByCard(baseUrl, headers, orderRef) {
  const started = await call(
    `${baseUrl}${API}/orders/${orderRef}/pay`,
    {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ gateway: 'card_gateway' }),
    },
    200,
  );
  const form = new URLSearchParams({ action: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' });
  const checkout = await fetch(started.paymentUrl, { method: 'POST', body: form, redirect: 'manual' });
  const callback = await fetch(checkout.headers.get('location'), { redirect: 'manual' });
  if (callback.status !== 200) throw new Error(`callback answered ${callback.status}`);
}
