import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Document } from '../../src/modules/documents/entities/document';
import { LocalDiskStorage } from '../../src/modules/documents/storage/local-disk-storage';
import {
  DOCUMENTS_PATH,
  FILES,
  TRAVELLERS_PATH,
  travellerInput,
  uploadDocument,
  uploadForm,
  uploadTravellerDocuments,
} from '../support/documents';
import { expectContract } from '../support/contract';
import { HIDDEN_SCRIPT_PDFS, PLAIN_OBJECT_STREAM_PDF, heavyPdf } from '../support/crafted-pdfs';
import { newPartner, type TestPartner } from '../support/partners';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import type { WireJson } from '../support/http-client';
import { expectStatus } from '../support/expect-status';

const MAX_UPLOAD_BYTES = 64 * 1024;

const { server, client } = useTestServer({ env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) } });
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const storageRoot = () => (server.storage as LocalDiskStorage).root;

function storedFiles(): string[] {
  if (!fs.existsSync(storageRoot())) return [];
  return fs
    .readdirSync(storageRoot(), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

const documentRows = (companyId: string) => server.orm.em.fork().count(Document, { company: companyId });

/** A file of `size` bytes that starts like a real PNG. */
const pngOfSize = (size: number) =>
  Buffer.concat([FILES.png, Buffer.alloc(Math.max(0, size - FILES.png.length), 7)]).subarray(0, size);

/** Runs `act` with a fresh partner and checks it left no stored bytes and no document row behind. */
async function expectNothingLeft(act: (partner: TestPartner) => Promise<void>) {
  const fresh = await newPartner(server, client);
  const filesBefore = storedFiles().length;
  await act(fresh);
  expect(storedFiles()).toHaveLength(filesBefore);
  expect(await documentRows(fresh.companyId)).toBe(0);
}

const upload = (form: FormData, token = partner.token) =>
  client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, { token, raw: form });

function expectUploadError(response: { status: number; body: WireJson }, status: number, message: RegExp) {
  expectStatus(response, status);
  expect(response.body).toMatchObject({ success: false, data: null });
  expect(response.body.message).toMatch(message);
  expect(typeof response.body.timestamp).toBe('string');
}

describe('POST /documents', () => {
  it('stores a PNG avatar as a draft of the caller company and answers with its metadata', async () => {
    const sentAt = Date.now();
    const response = await uploadDocument(client, partner.token, 'AVATAR', FILES.png, {
      fileName: 'anna-avatar.png',
      declaredType: 'image/png',
    });
    expectStatus(response, 201);
    expect(response.body.data).toMatchObject({
      documentType: 'AVATAR',
      fileName: 'anna-avatar.png',
      fileSize: FILES.png.length,
      contentType: 'image/png',
      status: 'DRAFT',
    });
    // Uploaded by this request: between sending it and reading its answer.
    expect(Date.parse(response.body.data.uploadedAt)).toBeGreaterThanOrEqual(sentAt);
    expect(Date.parse(response.body.data.uploadedAt)).toBeLessThanOrEqual(Date.now());

    const stored = await server.orm.em
      .fork()
      .findOneOrFail(Document, response.body.data.documentId, { populate: ['company'] });
    expect(stored.company.id).toBe(partner.companyId);
    expect(stored.traveller).toBeNull();
    expect(stored.sha256).toBe(createHash('sha256').update(FILES.png).digest('hex'));
    // stored under a generated key, never the client's name, and byte for byte
    expect(stored.storageKey).toMatch(/^[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    expect((await buffer(server.storage.read(stored.storageKey))).equals(FILES.png)).toBe(true);
    expect(storedFiles()).not.toContain('anna-avatar.png');
  });

  it.each([
    ['AVATAR', 'jpeg', 'image/jpeg'],
    ['AVATAR', 'webp', 'image/webp'],
    ['SIGNATURE', 'png', 'image/png'],
    ['SIGNATURE', 'webp', 'image/webp'],
    ['PASSPORT', 'pdf', 'application/pdf'],
    ['PASSPORT', 'jpeg', 'image/jpeg'],
    ['VISA', 'pdf', 'application/pdf'],
    ['VISA', 'png', 'image/png'],
  ] as const)('accepts a %s as %s', async (documentType, kind, contentType) => {
    const response = await uploadDocument(client, partner.token, documentType, FILES[kind]);
    expectStatus(response, 201);
    expect(response.body.data.contentType).toBe(contentType);
  });

  it('detects the type from the bytes: a PNG renamed .pdf and declared as PDF is stored as image/png', async () => {
    const response = await uploadDocument(client, partner.token, 'PASSPORT', FILES.png, {
      fileName: 'passport.pdf',
      declaredType: 'application/pdf',
    });
    expectStatus(response, 201);
    expect(response.body.data.contentType).toBe('image/png');
    expect(response.body.data.fileName).toBe('passport.pdf');
  });

  it('refuses a PDF as a SIGNATURE (error shape 3) and keeps nothing', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, 'SIGNATURE', FILES.pdf, { fileName: 'signature.pdf' });
      expectUploadError(
        response,
        400,
        /File type application\/pdf is not allowed for SIGNATURE; use JPEG, PNG or WebP/,
      );
    });
  });

  it('accepts a PNG called signature.pdf as a SIGNATURE: the bytes decide, not the name', async () => {
    const response = await uploadDocument(client, partner.token, 'SIGNATURE', FILES.png, {
      fileName: 'signature.pdf',
      declaredType: 'application/pdf',
    });
    expectStatus(response, 201);
    expect(response.body.data.contentType).toBe('image/png');
  });

  it.each([
    [
      'an ELF executable called avatar.png',
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4000, 1)]),
    ],
    ['an HTML page called avatar.png', Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>')],
    ['an SVG called avatar.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ])('refuses %s declared as image/png and keeps nothing', async (_name, bytes) => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, 'AVATAR', bytes, {
        fileName: 'avatar.png',
        declaredType: 'image/png',
      });
      expectUploadError(response, 400, /not a JPEG, PNG, WebP or PDF|not an accepted type/);
    });
  });

  // Issue 14: both were accepted on their magic bytes alone.
  it.each([
    [
      'a PNG signature followed by a script, as AVATAR',
      'AVATAR',
      Buffer.concat([FILES.png.subarray(0, 8), Buffer.from('<script>alert(1)</script>')]),
      /not a readable image/,
    ],
    [
      'a PDF with /OpenAction /JavaScript, as PASSPORT',
      'PASSPORT',
      Buffer.from(
        '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R /OpenAction <</S /JavaScript /JS (app.alert(1))>>>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
        'latin1',
      ),
      /active content \(\/OpenAction\)/,
    ],
    [
      'a PDF with a hex-escaped /J#61vaScript action, as VISA',
      'VISA',
      Buffer.from('%PDF-1.4\n1 0 obj <</S /J#61vaScript /J#53 (x)>> endobj\n%%EOF\n', 'latin1'),
      /active content \(\/JavaScript\)/,
    ],
  ])('refuses %s (error shape 3) and keeps nothing', async (_name, documentType, bytes, message) => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, documentType, bytes);
      expectUploadError(response, 400, message);
    });
  });

  // Issue 30: each hid the same /OpenAction /JavaScript in an object stream the byte scan did not decode.
  it.each(HIDDEN_SCRIPT_PDFS)(
    'refuses a PDF whose catalogue with an OpenAction script sits in an object stream with %s (error shape 3) and keeps nothing',
    async (_how, pdf) => {
      await expectNothingLeft(async (fresh) => {
        const response = await uploadDocument(client, fresh.token, 'PASSPORT', pdf);
        expectUploadError(
          response,
          400,
          /File is a PDF with active content \(\/OpenAction\): send a PDF that only shows pages; use JPEG, PNG, WebP or PDF/,
        );
      });
    },
  );

  it('accepts a PDF whose catalogue sits in a compressed object stream and only shows pages', async () => {
    const response = await uploadDocument(client, partner.token, 'VISA', PLAIN_OBJECT_STREAM_PDF);
    expectStatus(response, 201);
    expect(response.body.data).toMatchObject({ documentType: 'VISA', contentType: 'application/pdf' });
  });

  it('refuses the 64 KiB PDF whose object stream inflates to 21 MiB as one that could not be checked (error shape 3)', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, 'PASSPORT', heavyPdf());
      expectUploadError(
        response,
        400,
        /File is a PDF that could not be checked \(its streams decode to more than 8 MiB\)/,
      );
    });
  });

  it('answers /healthz while 8 such PDFs are being judged', async () => {
    const fresh = await newPartner(server, client);
    const pdf = heavyPdf();
    const uploads = Array.from({ length: 8 }, () => uploadDocument(client, fresh.token, 'PASSPORT', pdf));
    const health = await client.op('getHealth', 'GET', '/healthz');
    expectStatus(health, 200);
    for (const response of await Promise.all(uploads)) expectUploadError(response, 400, /could not be checked/);
  });

  it('accepts the README flow files of examples/files', async () => {
    const examples: [name: string, documentType: string][] = [
      ['avatar.png', 'AVATAR'],
      ['passport.pdf', 'PASSPORT'],
      ['signature.png', 'SIGNATURE'],
    ];
    for (const [name, documentType] of examples) {
      const response = await uploadDocument(
        client,
        partner.token,
        documentType,
        fs.readFileSync(path.resolve(__dirname, '../../examples/files', name)),
      );
      expectStatus(response, 201);
    }
  });

  it('refuses a request without a file part', async () => {
    await expectNothingLeft(async (fresh) => {
      expectUploadError(await upload(uploadForm('AVATAR', undefined), fresh.token), 400, /File is required/);
    });
  });

  it('refuses an empty file', async () => {
    await expectNothingLeft(async (fresh) => {
      expectUploadError(await upload(uploadForm('AVATAR', Buffer.alloc(0)), fresh.token), 400, /File is empty/);
    });
  });

  it('refuses a missing documentType', async () => {
    await expectNothingLeft(async (fresh) => {
      expectUploadError(await upload(uploadForm(undefined, FILES.png), fresh.token), 400, /documentType is required/);
    });
  });

  it('refuses an unknown documentType, naming the accepted ones', async () => {
    await expectNothingLeft(async (fresh) => {
      expectUploadError(
        await upload(uploadForm('SELFIE', FILES.png), fresh.token),
        400,
        /documentType must be one of AVATAR, PASSPORT, SIGNATURE, VISA/,
      );
    });
  });

  it('refuses an unexpected extra field', async () => {
    await expectNothingLeft(async (fresh) => {
      const form = uploadForm('AVATAR', FILES.png);
      form.append('comment', 'hello');
      expectUploadError(
        await upload(form, fresh.token),
        400,
        /Unexpected form field "comment"|Send only the fields file and documentType/,
      );
    });
  });

  it('refuses two files in one request', async () => {
    await expectNothingLeft(async (fresh) => {
      const form = uploadForm('AVATAR', FILES.png);
      form.append('file', new Blob([FILES.jpeg]), 'second.jpg');
      expectUploadError(await upload(form, fresh.token), 400, /exactly one file/);
    });
  });

  it('accepts a file of exactly MAX_UPLOAD_BYTES', async () => {
    const response = await uploadDocument(client, partner.token, 'AVATAR', pngOfSize(MAX_UPLOAD_BYTES));
    expectStatus(response, 201);
    expect(response.body.data.fileSize).toBe(MAX_UPLOAD_BYTES);
  });

  it('refuses a file one byte over MAX_UPLOAD_BYTES with 413 (error shape 3) and keeps nothing', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, 'AVATAR', pngOfSize(MAX_UPLOAD_BYTES + 1));
      expectUploadError(response, 413, new RegExp(`maximum size of ${MAX_UPLOAD_BYTES} bytes`));
    });
  });

  it('refuses a request body far over the limit before reading it', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await uploadDocument(client, fresh.token, 'PASSPORT', pngOfSize(4 * MAX_UPLOAD_BYTES));
      expectUploadError(response, 413, /maximum size/);
    });
  });

  it('stops reading a chunked body without Content-Length once it passes the limit', async () => {
    await expectNothingLeft(async (fresh) => {
      const form = new Response(uploadForm('AVATAR', pngOfSize(4 * MAX_UPLOAD_BYTES)));
      const response = await fetch(new URL(DOCUMENTS_PATH, serverBehind(server.url)), {
        method: 'POST',
        headers: { authorization: `Bearer ${fresh.token}`, 'content-type': form.headers.get('content-type')! },
        body: form.body,
        duplex: 'half',
      });
      const body = (await response.json()) as { success: boolean };
      await expectContract('uploadDocument', response.status, body);
      expectUploadError({ status: response.status, body }, 413, /maximum size/);
    });
  });

  it('answers a hand-set multipart Content-Type without boundary with a clear 400, not a 500', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
        token: fresh.token,
        headers: { 'content-type': 'multipart/form-data' },
        raw: '--x\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nAVATAR\r\n--x--\r\n',
      });
      expectStatus(response, 400);
      expect(response.body.message).toMatch(/no boundary; let your HTTP library set it/);
    });
  });

  it('answers a body that is not valid multipart with a 400', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
        token: fresh.token,
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
        raw: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG\r\n\x1a\n unterminated',
      });
      expectStatus(response, 400);
      expect(response.body.message).toMatch(/Malformed multipart\/form-data request/);
    });
  });

  it('answers a body cut before its closing boundary with a shape-2 400 MALFORMED_REQUEST naming the parts that arrived whole and those that did not', async () => {
    await expectNothingLeft(async (fresh) => {
      const response = await client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
        token: fresh.token,
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
        raw: '--abc\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nAVATAR\r\n--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG\r\n\x1a\n cut here',
      });
      expectStatus(response, 400);
      expect(response.body).not.toHaveProperty('success');
      expect(response.body).toMatchObject({
        status: 400,
        code: 'MALFORMED_REQUEST',
        message:
          'Malformed multipart/form-data request: the body ended before its closing boundary; arrived whole: documentType; cut off or missing: file. Nothing was stored: send the whole request again',
      });
    });
  });

  it('answers a JSON body with a 400 that asks for multipart', async () => {
    const response = await client.op(
      'uploadDocument',
      'POST',
      DOCUMENTS_PATH,
      { documentType: 'AVATAR' },
      { token: partner.token },
    );
    expectStatus(response, 400);
    expect(response.body.message).toMatch(/multipart\/form-data/);
  });

  it('refuses an unauthenticated upload (shape 1) before storing any byte', async () => {
    const filesBefore = storedFiles().length;
    const response = await upload(uploadForm('AVATAR', FILES.png), 'not-a-token');
    expectStatus(response, 401);
    expect(response.body).toEqual({ success: false, message: expect.any(String), code: 'TOKEN_INVALID', data: null });
    expect(storedFiles()).toHaveLength(filesBefore);
  });

  it.each([
    ['../../etc/passwd.png', 'passwd.png'],
    [`${'x'.repeat(400)}.png`, `${'x'.repeat(116)}.png`],
    // Browsers and fetch send a file name's UTF-8 bytes as they are, in filename="...".
    ['पासपोर्ट.png', 'पासपोर्ट.png'],
  ])('sanitises the file name %j for display', async (fileName, expected) => {
    const response = await uploadDocument(client, partner.token, 'AVATAR', FILES.png, { fileName });
    expectStatus(response, 201);
    expect(response.body.data.fileName).toBe(expected);
  });

  it('sanitises control and direction characters smuggled in an RFC 5987 file name', async () => {
    const boundary = 'b0undary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nAVATAR\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''..%2Fscan%00%07%1B%E2%80%AEgnp.exe\r\nContent-Type: image/png\r\n\r\n`,
      ),
      FILES.png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await fetch(new URL(DOCUMENTS_PATH, serverBehind(server.url)), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${partner.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    const json = (await response.json()) as { data: { fileName: string; contentType: string } };
    await expectContract('uploadDocument', response.status, json);
    expectStatus(response, 201);
    expect(json.data.fileName).toBe('scangnp.exe');
    expect(json.data.contentType).toBe('image/png');
  });
});

describe('draft purge', () => {
  const age = async (documentId: string, hours: number) => {
    await server.orm.em
      .fork()
      .nativeUpdate(Document, { id: documentId }, { uploadedAt: new Date(Date.now() - hours * 3_600_000) });
  };

  it('removes a draft older than DOCUMENT_DRAFT_TTL_HOURS with its bytes, keeps a fresh draft and an old attached document', async () => {
    const owner = await newPartner(server, client);
    const oldDraft = (await uploadDocument(client, owner.token, 'VISA', FILES.pdf)).body.data.documentId;
    const freshDraft = (await uploadDocument(client, owner.token, 'VISA', FILES.pdf)).body.data.documentId;
    const documents = await uploadTravellerDocuments(client, owner.token);
    const registered = await client.op('registerTravellers', 'POST', TRAVELLERS_PATH, [travellerInput(documents)], {
      token: owner.token,
    });
    expectStatus(registered, 201);
    await age(oldDraft, 25);
    await age(freshDraft, 23);
    for (const id of Object.values(documents)) await age(id, 24 * 30);

    const em = server.orm.em.fork();
    const oldKey = (await em.findOneOrFail(Document, oldDraft)).storageKey;
    const attachedKey = (await em.findOneOrFail(Document, documents.avatarDocumentId)).storageKey;

    const result = await server.draftPurge.runOnce();
    expect(result.purged).toBeGreaterThanOrEqual(1);

    const check = server.orm.em.fork();
    expect(await check.findOne(Document, oldDraft)).toBeNull();
    expect(await server.storage.exists(oldKey)).toBe(false);
    expect(await check.findOne(Document, freshDraft)).not.toBeNull();
    expect(await check.count(Document, { id: { $in: Object.values(documents) } })).toBe(3);
    expect(await server.storage.exists(attachedKey)).toBe(true);
    expect(fs.existsSync(path.join(storageRoot(), attachedKey))).toBe(true);
  });

  it('makes a purged draft unusable for registration (404)', async () => {
    const owner = await newPartner(server, client);
    const documents = await uploadTravellerDocuments(client, owner.token);
    await age(documents.passportDocumentId, 48);
    await server.draftPurge.runOnce();
    const response = await client.op('registerTravellers', 'POST', TRAVELLERS_PATH, [travellerInput(documents)], {
      token: owner.token,
    });
    expectStatus(response, 404);
    expect(response.body.message).toBe(`Document ${documents.passportDocumentId} not found`);
  });
});
