import { Document } from '../../src/modules/documents/entities/document';
import { Traveller } from '../../src/modules/travellers/entities/traveller';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import {
  FILES,
  TRAVELLERS_PATH,
  registerTraveller,
  travellerInput,
  uploadTravellerDocuments,
  uploadedDocumentId,
  type TravellerDocuments,
} from '../support/documents';
import { at } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const register = (body: unknown, token = partner.token) =>
  client.op('registerTravellers', 'POST', TRAVELLERS_PATH, body, { token });
const list = (query: Record<string, string | number> = {}, token = partner.token) =>
  client.op('listTravellers', 'GET', TRAVELLERS_PATH, undefined, { token, query });

const travellersOf = (companyId: string) => server.orm.em.fork().count(Traveller, { company: companyId });
const draftsOf = async (ids: string[]) => server.orm.em.fork().count(Document, { id: { $in: ids }, traveller: null });

/** Uploads the documents of `count` travellers, a few at a time. */
async function documentSets(token: string, count: number): Promise<TravellerDocuments[]> {
  const sets: TravellerDocuments[] = [];
  for (let i = 0; i < count; i += 10) {
    sets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, () => uploadTravellerDocuments(client, token)),
      )),
    );
  }
  return sets;
}

describe('POST /travellers', () => {
  it('registers one traveller, attaches its documents and echoes the stored fields with a touristId', async () => {
    const documents = await uploadTravellerDocuments(client, partner.token);
    const visaDocumentId = await uploadedDocumentId(client, partner.token, 'VISA', FILES.pdf);
    const input = travellerInput(
      { ...documents, visaDocumentId },
      {
        bloodGroup: 'O+',
        height: 171.5,
        weight: 62,
        englishService: true,
        motherTongue: 'German',
        medicalHistory: 'Asthma',
        allergy: 'Penicillin',
      },
    );
    const response = await register([input]);
    expectStatus(response, 201);
    expect(response.body.data).toHaveLength(1);
    const traveller = response.body.data[0];
    expect(traveller).toMatchObject({ ...input, touristId: expect.any(String) });
    expect(traveller).not.toHaveProperty('file');

    const em = server.orm.em.fork();
    const stored = await em.findOneOrFail(Traveller, traveller.touristId, { populate: ['company'] });
    expect(stored.company.id).toBe(partner.companyId);
    const attached = await em.find(
      Document,
      { id: { $in: [...Object.values(documents), visaDocumentId] } },
      { populate: ['traveller'] },
    );
    expect(attached.map((document) => document.traveller?.id)).toEqual([
      traveller.touristId,
      traveller.touristId,
      traveller.touristId,
      traveller.touristId,
    ]);
    expect(attached.every((document) => document.attachedAt instanceof Date)).toBe(true);
  });

  it('answers a batch in request order, one touristId each', async () => {
    const sets = await documentSets(partner.token, 3);
    const inputs = sets.map((documents, i) => travellerInput(documents, { name: `Traveller ${i}` }));
    const response = await register(inputs);
    expectStatus(response, 201);
    expect(response.body.data.map((t: { name: string }) => t.name)).toEqual([
      'Traveller 0',
      'Traveller 1',
      'Traveller 2',
    ]);
    expect(new Set(response.body.data.map((t: { touristId: string }) => t.touristId)).size).toBe(3);
  });

  it('registers a batch of 50, the maximum', async () => {
    const owner = await newPartner(server, client);
    const sets = await documentSets(owner.token, 50);
    const response = await register(
      sets.map((documents) => travellerInput(documents)),
      owner.token,
    );
    expectStatus(response, 201);
    expect(response.body.data).toHaveLength(50);
    expect(await travellersOf(owner.companyId)).toBe(50);
  }, 120_000);

  it.each([
    ['a single object instead of an array', () => ({ name: 'Anna' }), 'body'],
    ['an empty array', () => [], 'body'],
    [
      '51 items',
      () =>
        Array.from({ length: 51 }, () =>
          travellerInput({
            avatarDocumentId: '00000000-0000-4000-8000-000000000001',
            passportDocumentId: '00000000-0000-4000-8000-000000000002',
            signatureDocumentId: '00000000-0000-4000-8000-000000000003',
          }),
        ),
      'body',
    ],
  ])('refuses %s with a 400', async (_name, body, field) => {
    const response = await register(body());
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toContain(field);
  });

  describe('validates every field, indexed by position', () => {
    let documents: TravellerDocuments;
    beforeAll(async () => {
      documents = await uploadTravellerDocuments(client, partner.token);
    });

    const tomorrow = addDays(kathmanduToday(), 1);
    it.each([
      ['an invalid e-mail', { email: 'anna-at-example.com' }, 'email'],
      ['a date of birth not as YYYY-MM-DD', { dateOfBirth: '12.04.1990' }, 'dateOfBirth'],
      ['an impossible date of birth', { dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
      ['a date of birth in the future', { dateOfBirth: tomorrow }, 'dateOfBirth'],
      ['a phone without country code', { phone: '0151 23456789' }, 'phone'],
      ['an emergency phone without country code', { emergencyContactPhone: '151234567' }, 'emergencyContactPhone'],
      ['an invalid emergency e-mail', { emergencyContactEmail: 'lena@' }, 'emergencyContactEmail'],
      ['an unknown gender', { gender: 'M' }, 'gender'],
      ['an unknown idType', { idType: 'DRIVING_LICENCE' }, 'idType'],
      ['an unknown blood group', { bloodGroup: 'C+' }, 'bloodGroup'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a height of 10 cm', { height: 10 }, 'height'],
      ['a document ID that is not a UUID', { avatarDocumentId: 'avatar-1' }, 'avatarDocumentId'],
      ['an unknown field', { travelCompanyId: 'x' }, 'travelCompanyId'],
    ])('refuses %s', async (_name, override, field) => {
      const response = await register([travellerInput(documents, override as object)]);
      expectStatus(response, 400);
      expect(Object.keys(response.body.details.fieldErrors)).toContain(`[0].${field}`);
    });

    // Hostile text must never reach an operator's terminal or a document as a forged line (issue 14).
    it.each([
      ['a name with a line break and a forged status line', { name: 'Anna Weber\nstatus PAID' }, 'name'],
      ['a name with an ANSI colour sequence', { name: 'Anna \u001b[32mWeber' }, 'name'],
      ['a name with an OSC sequence (terminal title)', { name: 'Anna \u001b]0;pwned\u0007' }, 'name'],
      ['a nationality with a C1 control (CSI)', { nationality: 'German\u009b2J' }, 'nationality'],
      ['an idNumber with a tab', { idNumber: 'C01X\t00T47' }, 'idNumber'],
      ['an emergency contact with a carriage return', { emergencyContactName: 'Lena\rWeber' }, 'emergencyContactName'],
      ['an emergency relation with DEL', { emergencyContactRelation: 'Sister\u007f' }, 'emergencyContactRelation'],
      ['a medical history with an escape sequence', { medicalHistory: 'Asthma\u001b[2J' }, 'medicalHistory'],
    ])('refuses %s, naming the field', async (_name, override, field) => {
      const response = await register([travellerInput(documents, override)]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors[`[0].${field}`]).toMatch(/control characters/);
    });

    it('accepts line breaks and tabs in medicalHistory and allergy, and non-Latin names', async () => {
      const fresh = await uploadTravellerDocuments(client, partner.token);
      const input = travellerInput(fresh, {
        name: 'राम बहादुर थापा',
        medicalHistory: 'Asthma\r\nInhaler:\tdaily',
        allergy: 'Penicillin\nNuts',
      });
      const response = await register([input]);
      expectStatus(response, 201);
      expect(response.body.data[0]).toMatchObject({
        name: input.name,
        medicalHistory: input.medicalHistory,
        allergy: input.allergy,
      });
    });

    it.each([
      ['before 1900', '1899-12-31'],
      ['in year 0001', '0001-01-01'],
    ])('refuses a date of birth %s with a field error', async (_name, dateOfBirth) => {
      const response = await register([travellerInput(documents, { dateOfBirth })]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors['[0].dateOfBirth']).toBe('must be a date from 1900-01-01 on');
    });

    it.each([
      'email',
      'name',
      'dateOfBirth',
      'nationality',
      'idType',
      'idNumber',
      'gender',
      'phone',
      'emergencyContactName',
      'emergencyContactPhone',
      'emergencyContactEmail',
      'emergencyContactRelation',
      'avatarDocumentId',
      'passportDocumentId',
      'signatureDocumentId',
    ])('requires %s', async (field) => {
      const input: Record<string, unknown> = travellerInput(documents);
      delete input[field];
      const response = await register([input]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors[`[0].${field}`]).toBe('is required');
    });

    it('does not require a visa', async () => {
      const fresh = await uploadTravellerDocuments(client, partner.token);
      const response = await register([travellerInput(fresh)]);
      expectStatus(response, 201);
      expect(response.body.data[0].visaDocumentId).toBeNull();
    });

    it('indexes the field error of the fourth item as [3].email and stores nothing', async () => {
      const owner = await newPartner(server, client);
      const sets = await documentSets(owner.token, 4);
      const inputs = sets.map((set) => travellerInput(set));
      inputs[3] = { ...at(inputs, 3, 'the inputs'), email: 'not-an-email' };
      const response = await register(inputs, owner.token);
      expectStatus(response, 400);
      expect(Object.keys(response.body.details.fieldErrors)).toEqual(['[3].email']);
      expect(await travellersOf(owner.companyId)).toBe(0);
    });
  });

  describe('document rules', () => {
    it('refuses a document of the wrong type as a field error of its slot', async () => {
      const documents = await uploadTravellerDocuments(client, partner.token);
      const response = await register([
        travellerInput({
          ...documents,
          avatarDocumentId: documents.passportDocumentId,
          passportDocumentId: documents.avatarDocumentId,
        }),
      ]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors).toEqual({
        '[0].avatarDocumentId': 'document is of type PASSPORT, expected AVATAR',
        '[0].passportDocumentId': 'document is of type AVATAR, expected PASSPORT',
      });
      expect(await draftsOf(Object.values(documents))).toBe(3);
    });

    it('refuses a visa slot filled with a passport', async () => {
      const documents = await uploadTravellerDocuments(client, partner.token);
      const passport = await uploadedDocumentId(client, partner.token, 'PASSPORT', FILES.pdf);
      const response = await register([travellerInput({ ...documents, visaDocumentId: passport })]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors['[0].visaDocumentId']).toBe(
        'document is of type PASSPORT, expected VISA',
      );
    });

    it('answers 404 for an unknown document', async () => {
      const documents = await uploadTravellerDocuments(client, partner.token);
      const unknown = '0ab2c4e6-8d9f-4a1b-ac3d-5e7f9a1b3c67';
      const response = await register([travellerInput({ ...documents, signatureDocumentId: unknown })]);
      expectStatus(response, 404);
      expect(response.body.message).toBe(`Document ${unknown} not found`);
      expect(await draftsOf(Object.values(documents))).toBe(3);
    });

    it('answers 409 for a document already attached to a traveller', async () => {
      const first = await uploadTravellerDocuments(client, partner.token);
      expectStatus(await register([travellerInput(first)]), 201);
      const second = await uploadTravellerDocuments(client, partner.token);
      const response = await register([travellerInput({ ...second, passportDocumentId: first.passportDocumentId })]);
      expectStatus(response, 409);
      const owner = await server.orm.em.fork().findOneOrFail(Document, first.passportDocumentId);
      expect(response.body.message).toBe(
        `Document ${first.passportDocumentId} is already attached to traveller ${owner.traveller?.id}; a document belongs to one traveller: upload the file again (POST /documents) for this one`,
      );
      expect(await draftsOf(Object.values(second))).toBe(3);
    });

    it('answers 409 for one document used by two travellers of a batch', async () => {
      const [a, b] = await documentSets(partner.token, 2);
      if (!a || !b) throw new Error('expected two document sets');
      const response = await register([
        travellerInput(a),
        travellerInput({ ...b, avatarDocumentId: a.avatarDocumentId }),
      ]);
      expectStatus(response, 409);
      expect(response.body.message).toMatch(/used more than once/);
    });

    it('is all-or-nothing: a batch whose last item fails leaves no traveller and no attachment', async () => {
      const owner = await newPartner(server, client);
      const sets = await documentSets(owner.token, 3);
      const attachedElsewhere = await uploadTravellerDocuments(client, owner.token);
      expectStatus(await register([travellerInput(attachedElsewhere)], owner.token), 201);

      const batch = [
        travellerInput(at(sets, 0, 'the document sets')),
        travellerInput(at(sets, 1, 'the document sets')),
        travellerInput({
          ...at(sets, 2, 'the document sets'),
          signatureDocumentId: attachedElsewhere.signatureDocumentId,
        }),
      ];
      const response = await register(batch, owner.token);
      expectStatus(response, 409);
      expect(await travellersOf(owner.companyId)).toBe(1);
      expect(await draftsOf(sets.flatMap((set) => Object.values(set)))).toBe(9);

      // The same batch with its own documents then goes through: nothing was half-taken.
      const retry = await register(
        [
          travellerInput(at(sets, 0, 'the document sets')),
          travellerInput(at(sets, 1, 'the document sets')),
          travellerInput(at(sets, 2, 'the document sets')),
        ],
        owner.token,
      );
      expectStatus(retry, 201);
      expect(await travellersOf(owner.companyId)).toBe(4);
    });
  });

  describe('cross-company isolation', () => {
    it("does not let company B attach company A's documents (404, as if they did not exist)", async () => {
      const companyB = await newPartner(server, client);
      const documentsOfA = await uploadTravellerDocuments(client, partner.token);
      const response = await register([travellerInput(documentsOfA)], companyB.token);
      expectStatus(response, 404);
      expect(response.body.message).toBe(`Document ${documentsOfA.avatarDocumentId} not found`);
      expect(await draftsOf(Object.values(documentsOfA))).toBe(3);
      expect(await travellersOf(companyB.companyId)).toBe(0);
    });

    it("does not let company B mix one of company A's documents into its own", async () => {
      const companyB = await newPartner(server, client);
      const documentsOfB = await uploadTravellerDocuments(client, companyB.token);
      const visaOfA = await uploadedDocumentId(client, partner.token, 'VISA', FILES.pdf);
      const response = await register([travellerInput({ ...documentsOfB, visaDocumentId: visaOfA })], companyB.token);
      expectStatus(response, 404);
    });
  });

  it('answers 401 (shape 1) without a token', async () => {
    const response = await client.op('registerTravellers', 'POST', TRAVELLERS_PATH, []);
    expectStatus(response, 401);
  });
});

describe('GET /travellers', () => {
  let owner: TestPartner;
  const names = ['Anna Keller', 'Bikash Gurung', 'Chloé Dubois'];

  beforeAll(async () => {
    owner = await newPartner(server, client);
    const sets = await documentSets(owner.token, 3);
    // registered one at a time so that createdAt orders them
    await register(
      [
        travellerInput(at(sets, 0, 'the document sets'), {
          name: names[0],
          email: 'anna.keller@example.de',
          nationality: 'Germany',
          idNumber: 'C01X00T47',
          phone: '+49 151 23456789',
        }),
      ],
      owner.token,
    );
    await register(
      [
        travellerInput(at(sets, 1, 'the document sets'), {
          name: names[1],
          email: 'bikash@example.com.np',
          nationality: 'Nepal',
          idNumber: 'NP_123%45',
          phone: '+977 980 1234567',
        }),
      ],
      owner.token,
    );
    await register(
      [
        travellerInput(at(sets, 2, 'the document sets'), {
          name: names[2],
          email: 'chloe.dubois@example.fr',
          nationality: 'France',
          idNumber: '19FR88231',
          phone: '+33 6 12 34 56 78',
        }),
      ],
      owner.token,
    );
  });

  it('lists only the caller company, newest first by default, with Spring-style page metadata', async () => {
    const response = await list({}, owner.token);
    expectStatus(response, 200);
    expect(response.body.data.content.map((t: { name: string }) => t.name)).toEqual([...names].reverse());
    expect(response.body.data).toMatchObject({
      page: 0,
      size: 20,
      totalElements: 3,
      totalPages: 1,
      first: true,
      last: true,
    });
  });

  it("never shows company A's travellers to company B", async () => {
    const companyB = await newPartner(server, client);
    const touristId = await registerTraveller(client, companyB, { name: 'Only B' });
    const ofB = await list({}, companyB.token);
    expect(ofB.body.data.content.map((t: { touristId: string }) => t.touristId)).toEqual([touristId]);
    const searchB = await list({ search: 'Dubois' }, companyB.token);
    expect(searchB.body.data.totalElements).toBe(0);
    const ofA = await list({ search: 'Only B' }, owner.token);
    expect(ofA.body.data.totalElements).toBe(0);
  });

  it.each([
    ['name, any case', 'kELLer', ['Anna Keller']],
    ['e-mail', 'example.com.np', ['Bikash Gurung']],
    ['ID number', 'fr882', ['Chloé Dubois']],
    ['phone', '980 123', ['Bikash Gurung']],
    ['nationality', 'nepal', ['Bikash Gurung']],
    ['accented name', 'chloé', ['Chloé Dubois']],
    ['a shared fragment', 'example', ['Chloé Dubois', 'Bikash Gurung', 'Anna Keller']],
    ['a LIKE wildcard taken literally', '%', ['Bikash Gurung']],
    ['an underscore taken literally', 'np_', ['Bikash Gurung']],
    ['no match', 'zzz-nobody', []],
  ])('searches by %s', async (_name, search, expected) => {
    const response = await list({ search }, owner.token);
    expectStatus(response, 200);
    expect(response.body.data.content.map((t: { name: string }) => t.name)).toEqual(expected);
    expect(response.body.data.totalElements).toBe(expected.length);
  });

  it('sorts by name ascending when asked', async () => {
    const response = await list({ sortBy: 'name', sortDir: 'asc' }, owner.token);
    expect(response.body.data.content.map((t: { name: string }) => t.name)).toEqual(names);
  });

  it('sorts by nationality descending when asked', async () => {
    const response = await list({ sortBy: 'nationality', sortDir: 'desc' }, owner.token);
    expect(response.body.data.content.map((t: { nationality: string }) => t.nationality)).toEqual([
      'Nepal',
      'Germany',
      'France',
    ]);
  });

  it('pages with zero-based page numbers', async () => {
    const first = await list({ size: 2, page: 0 }, owner.token);
    const second = await list({ size: 2, page: 1 }, owner.token);
    expect(first.body.data).toMatchObject({
      page: 0,
      size: 2,
      totalElements: 3,
      totalPages: 2,
      first: true,
      last: false,
    });
    expect(second.body.data).toMatchObject({ page: 1, size: 2, first: false, last: true });
    expect(second.body.data.content.map((t: { name: string }) => t.name)).toEqual([names[0]]);
  });

  it('answers a page far past the end (even one past 2^64 rows) with an empty page', async () => {
    const response = await list({ page: '99999999999999999999', size: 3 }, owner.token);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ content: [], totalElements: 3, first: false, last: true });
  });

  it('clamps a size above 100 to 100', async () => {
    const response = await list({ size: 500 }, owner.token);
    expectStatus(response, 200);
    expect(response.body.data.size).toBe(100);
  });

  it.each([
    ['an unknown sortBy', { sortBy: 'password' }, 'sortBy'],
    ['an unknown sortDir', { sortDir: 'sideways' }, 'sortDir'],
    ['a negative page', { page: -1 }, 'page'],
  ])('refuses %s with a field error', async (_name, query, field) => {
    const response = await list(query, owner.token);
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toContain(field);
  });
});

describe('POST /travellers: what the certificate prints must be printable', () => {
  it('refuses a name and a nationality in scripts no embedded certificate font has, naming the characters on each field, and registers nothing of the batch', async () => {
    const overrides = [{ name: 'Ṣàngó 𒀭𒂗𒆠' }, { name: 'Abebe Bikila', nationality: 'ኢትዮጵያ' }];
    const sets = await documentSets(partner.token, overrides.length);
    const before = await travellersOf(partner.companyId);
    const response = await register(sets.map((documents, i) => travellerInput(documents, overrides[i])));
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toEqual({
      '[0].name': 'contains characters the certificate cannot print: "𒀭" (U+1202D), "𒂗" (U+12097), "𒆠" (U+121A0)',
      '[1].nationality': expect.stringMatching(
        /^contains characters the certificate cannot print: "ኢ" \(U\+12A2\), "ት" \(U\+1275\)/,
      ),
    });
    expect(await travellersOf(partner.companyId)).toBe(before);
  });

  it('accepts names in every script the certificate prints', async () => {
    const names = [
      'Ṣàngó Nguyễn',
      'सीता शर्मा',
      'Иван Петров',
      'Γιώργος',
      '王小明',
      '佐藤 さくら',
      '김민준',
      'דוד כהן',
      'محمد علي',
      'สมชาย ใจดี',
    ];
    const sets = await documentSets(partner.token, names.length);
    const response = await register(sets.map((documents, i) => travellerInput(documents, { name: names[i] })));
    expectStatus(response, 201);
    expect(response.body.data.map((traveller: { name: string }) => traveller.name)).toEqual(names);
  });
});

describe('POST /travellers: a name a reader can see', () => {
  it('refuses a name of only a Hangul filler, a joiner or soft hyphen a Latin name does not need, and 150 stacked combining marks, naming each field; registers nothing', async () => {
    const overrides = [
      { name: '\u3164' },
      { name: 'Anna\u200DKeller' },
      { name: 'Anna\u200CKeller' },
      { name: 'Anna Kel\u00ADler' },
      { name: `Anna K${'\u0301'.repeat(150)}eller` },
      { emergencyContactName: '\u3164\u3164' },
    ];
    const sets = await documentSets(partner.token, overrides.length);
    const before = await travellersOf(partner.companyId);
    const response = await register(sets.map((documents, i) => travellerInput(documents, overrides[i])));
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toEqual({
      '[0].name': 'must contain a visible character',
      '[1].name': expect.stringContaining('must not contain a zero-width joiner or non-joiner'),
      '[2].name': expect.stringContaining('must not contain a zero-width joiner or non-joiner'),
      '[3].name': 'must not contain a soft hyphen (U+00AD)',
      '[4].name': 'must not stack more than 6 combining marks on one character',
      '[5].emergencyContactName': 'must contain a visible character',
    });
    expect(await travellersOf(partner.companyId)).toBe(before);
  });

  it('accepts the joiners where Devanagari and Persian spelling needs them, and Vietnamese tone marks', async () => {
    const names = ['क्\u200Dष शर्मा', 'علی\u200Cرضا احمدی', 'Nguyễn Thị Ánh'];
    const sets = await documentSets(partner.token, names.length);
    const response = await register(sets.map((documents, i) => travellerInput(documents, { name: names[i] })));
    expectStatus(response, 201);
    expect(response.body.data.map((traveller: { name: string }) => traveller.name)).toEqual(names);
  });
});

describe('POST /travellers nameAsInPassport', () => {
  it("when a Chinese-named traveller is registered with the name as in the passport's machine-readable zone, then it is stored upper-cased and read back beside the name", async () => {
    const documents = await uploadTravellerDocuments(client, partner.token);
    const response = await register([
      travellerInput(documents, { name: '陈美玲', nameAsInPassport: 'Chen<<Mei<Ling' }),
    ]);
    expectStatus(response, 201);
    expect(response.body.data[0]).toMatchObject({ name: '陈美玲', nameAsInPassport: 'CHEN<<MEI<LING' });
    const stored = await server.orm.em.fork().findOneOrFail(Traveller, response.body.data[0].touristId);
    expect(stored.nameAsInPassport).toBe('CHEN<<MEI<LING');
  });

  it('when it is not given, then the traveller reads back with nameAsInPassport null', async () => {
    const documents = await uploadTravellerDocuments(client, partner.token);
    const response = await register([travellerInput(documents)]);
    expectStatus(response, 201);
    expect(response.body.data[0].nameAsInPassport).toBeNull();
  });

  it.each([
    ['in Cyrillic', 'ИВАН ПЕТРОВ'],
    ['with a digit', 'SOPHIE KELLER2'],
    ['with an accented letter the zone transliterates', 'JOSÉ GARCÍA'],
    ['with three fillers in a row', 'TAN<<<MEI'],
    ['with a trailing filler copied from the zone', 'TAN<<MEI<<<<<'],
    ["longer than the zone's 39 characters", `${'A'.repeat(20)} ${'B'.repeat(19)}`],
  ])(
    'when it is %s, then it is a 400 naming [0].nameAsInPassport and nothing is registered',
    async (_case, nameAsInPassport) => {
      const documents = await uploadTravellerDocuments(client, partner.token);
      const before = await travellersOf(partner.companyId);
      const response = await register([travellerInput(documents, { nameAsInPassport })]);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors['[0].nameAsInPassport']).toMatch(/Latin letters A-Z|39/);
      expect(await travellersOf(partner.companyId)).toBe(before);
    },
  );
});
