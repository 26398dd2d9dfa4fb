// Dredd scenarios for uploadDocument, registerTravellers, updateTraveller and listTravellers; test/contract/hooks.cjs
// calls prepare() in its beforeAll (after the token) and merges `scenarios` into its own table.
// prepare() uploads real files and registers one traveller, because the examples can only name
// documents that do not exist on a fresh server; the scenarios then put live IDs into the requests.
const BOUNDARY = 'dredd-document-boundary';
const PDF =
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const live = { drafts: [], attached: undefined, unnamedTraveller: undefined };

/** A multipart body as a string (PDF is text), since Dredd sends the body it is given as is. */
function multipart(documentType, fileName, content) {
  return [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="documentType"',
    '',
    documentType,
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="file"; filename="${fileName}"`,
    'Content-Type: application/pdf',
    '',
    content,
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n');
}

function setMultipart(transaction, body) {
  transaction.request.body = body;
  transaction.request.headers['Content-Type'] = `multipart/form-data; boundary=${BOUNDARY}`;
  transaction.request.headers['Content-Length'] = String(Buffer.byteLength(body));
}

async function upload(baseUrl, token, documentType, bytes, type) {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([bytes], { type }), `${documentType.toLowerCase()}.bin`);
  const response = await fetch(`${baseUrl}/api/external/v1/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const payload = await response.json();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data.documentId;
}

async function documentSet(baseUrl, token) {
  return {
    avatarDocumentId: await upload(baseUrl, token, 'AVATAR', PNG, 'image/png'),
    passportDocumentId: await upload(baseUrl, token, 'PASSPORT', PDF, 'application/pdf'),
    signatureDocumentId: await upload(baseUrl, token, 'SIGNATURE', PNG, 'image/png'),
  };
}

/** Drafts for every example traveller (at most two) and one document already attached. */
async function prepare(baseUrl, token) {
  live.drafts = [await documentSet(baseUrl, token), await documentSet(baseUrl, token)];
  const taken = await documentSet(baseUrl, token);
  const response = await fetch(`${baseUrl}/api/external/v1/travellers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        email: 'dredd.fixture@example.com',
        name: 'Dredd Fixture',
        dateOfBirth: '1985-01-01',
        nationality: 'Germany',
        idType: 'PASSPORT',
        idNumber: 'DREDD0001',
        gender: 'OTHER',
        phone: '+49 151 00000000',
        emergencyContactName: 'Fixture Contact',
        emergencyContactPhone: '+49 151 00000001',
        emergencyContactEmail: 'contact@example.com',
        emergencyContactRelation: 'Friend',
        ...taken,
      },
    ]),
  });
  if (response.status !== 201) throw new Error(`fixture traveller answered ${response.status}`);
  live.attached = taken.passportDocumentId;
  // A traveller whose name is not in Latin letters, registered without the passport name: updateTraveller adds it.
  const unnamed = await fetch(`${baseUrl}/api/external/v1/travellers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        email: 'dredd.chen@example.com',
        name: '陈美玲',
        dateOfBirth: '1994-06-02',
        nationality: 'China',
        idType: 'PASSPORT',
        idNumber: 'DREDD0002',
        gender: 'FEMALE',
        phone: '+86 138 0013 8000',
        emergencyContactName: 'Chen Wei',
        emergencyContactPhone: '+86 139 0013 9000',
        emergencyContactEmail: 'chen.wei@example.com',
        emergencyContactRelation: 'Brother',
        ...(await documentSet(baseUrl, token)),
      },
    ]),
  });
  if (unnamed.status !== 201) throw new Error(`fixture traveller without a passport name answered ${unnamed.status}`);
  live.unnamedTraveller = (await unnamed.json()).data[0].touristId;
}

/** The documented update, on the live traveller registered without a passport name. */
function onUnnamedTraveller(transaction, body) {
  const fullPath = `/api/external/v1/travellers/${live.unnamedTraveller}`;
  transaction.fullPath = fullPath;
  transaction.request.uri = fullPath;
  if (body) transaction.request.body = JSON.stringify(body);
}

/** The example travellers with live drafts (the visa the example names is dropped: it cannot exist). */
function withLiveDocuments(transaction, edit = () => undefined) {
  const items = JSON.parse(transaction.request.body);
  items.forEach((item, index) => {
    delete item.visaDocumentId;
    Object.assign(item, live.drafts[index % live.drafts.length]);
  });
  edit(items);
  transaction.request.body = JSON.stringify(items);
}

const scenarios = {
  uploadDocument: {
    201: (t) => setMultipart(t, multipart('PASSPORT', 'sophie-keller-passport.pdf', PDF)),
    // A PDF is not allowed as a signature: error shape 3.
    400: (t) => setMultipart(t, multipart('SIGNATURE', 'signature.pdf', PDF)),
    // One byte over MAX_UPLOAD_BYTES (10 MiB by default) of an otherwise valid PDF.
    413: (t) => setMultipart(t, multipart('PASSPORT', 'scan.pdf', PDF + ' '.repeat(10 * 1024 * 1024 + 1 - PDF.length))),
  },
  registerTravellers: {
    201: (t) => withLiveDocuments(t),
    400: (t) =>
      withLiveDocuments(t, (items) => {
        items[0].phone = '0151 2345678';
        items[0].email = 'sophie.keller-at-example.com';
      }),
    // The example's document IDs exist nowhere: 404 as it is.
    404: () => undefined,
    409: (t) =>
      withLiveDocuments(t, (items) => {
        items[0].passportDocumentId = live.attached;
      }),
  },
  updateTraveller: {
    200: (t) => onUnnamedTraveller(t),
    // Not Latin letters as a passport's machine-readable zone prints them.
    400: (t) => onUnnamedTraveller(t, { nameAsInPassport: '陈美玲' }),
    // An id no traveller has (the example's is as good as any): 404 as it is.
    404: () => undefined,
  },
  listTravellers: {
    400: (t) => {
      const url = new URL(t.fullPath, 'http://dredd.invalid');
      url.searchParams.set('sortBy', 'password');
      url.searchParams.set('page', '-1');
      t.fullPath = `${url.pathname}${url.search}`;
      t.request.uri = t.fullPath;
    },
  },
};

module.exports = { prepare, scenarios };
