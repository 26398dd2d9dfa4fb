import { CompanyType, Company } from '../../src/modules/partners/entities/company';
import { Credential } from '../../src/modules/auth/entities/credential';
import { AccessToken } from '../../src/modules/auth/entities/access-token';
import { DEMO_PARTNERS } from '../../src/modules/partners/demo-partners';
import { useTestServer } from '../support/test-server';
import { newPartner } from '../support/partners';
import { eventually } from '../support/eventually';
import { first } from '../support/elements';
import { expectStatus } from '../support/expect-status';

const TOKEN = '/api/external/v1/auth/token';
const ROUTES = '/api/external/v1/reference/routes';

describe('POST /auth/token', () => {
  const { server, client } = useTestServer();

  it('issues an opaque bearer token with its lifetime for a valid credential', async () => {
    const partner = await newPartner(server, client);
    const response = await client.op('issueToken', 'POST', TOKEN, {
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    expectStatus(response, 200);
    expect(response.body.data.tokenType).toBe('Bearer');
    expect(response.body.data.expiresIn).toBe(3600);
    expect(response.body.data.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.body.data.accessToken.split('.')).toHaveLength(1); // not a JWT
  });

  it('stores only a hash of the token', async () => {
    const partner = await newPartner(server, client);
    const stored = await server.orm.em.fork().find(AccessToken, { credential: { clientId: partner.clientId } });
    expect(stored.map((token) => token.tokenHash)).not.toContain(partner.token);
    expect(first(stored, 'the stored tokens').tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('seeds the documented demo partners when asked for (SEED_DEMO_DATA=true)', async () => {
    const demo = DEMO_PARTNERS[0];
    const response = await client.op('issueToken', 'POST', TOKEN, {
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
    });
    expectStatus(response, 200);
  });

  it('answers a wrong secret and an unknown clientId alike with a shape-1 401', async () => {
    const partner = await newPartner(server, client);
    const wrongSecret = await client.op('issueToken', 'POST', TOKEN, {
      clientId: partner.clientId,
      clientSecret: 'nope',
    });
    const unknownClient = await client.op('issueToken', 'POST', TOKEN, {
      clientId: 'no-such-client',
      clientSecret: 'nope',
    });
    expectStatus(wrongSecret, 401);
    expectStatus(unknownClient, 401);
    expect(wrongSecret.body).toEqual(unknownClient.body);
    expect(wrongSecret.body).toEqual({
      success: false,
      message: expect.any(String),
      code: 'INVALID_CREDENTIALS',
      data: null,
    });
  });

  it('rejects blank fields with a 400 naming each field', async () => {
    const response = await client.op('issueToken', 'POST', TOKEN, { clientId: ' ', clientSecret: '' });
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors).sort()).toEqual(['clientId', 'clientSecret']);
  });

  it('refuses a token to a revoked credential and to an inactive company', async () => {
    const revoked = await newPartner(server, client);
    const inactive = await newPartner(server, client);
    const em = server.orm.em.fork();
    await em.nativeUpdate(Credential, { clientId: revoked.clientId }, { revokedAt: new Date() });
    await em.nativeUpdate(Company, { id: inactive.companyId }, { active: false });
    for (const partner of [revoked, inactive]) {
      const response = await client.op('issueToken', 'POST', TOKEN, {
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      });
      expectStatus(response, 401);
    }
  });
});

describe('bearer authentication on every other endpoint', () => {
  const { server, client } = useTestServer();

  const expectShape1 = async (code: string, token: string | undefined, headers: Record<string, string> = {}) => {
    const response = await client.op('listRoutes', 'GET', ROUTES, undefined, { token, headers });
    expectStatus(response, 401);
    expect(response.body).toEqual({ success: false, message: expect.any(String), code, data: null });
    expect(response.body).not.toHaveProperty('timestamp');
  };

  it('accepts a valid token', async () => {
    const partner = await newPartner(server, client);
    const response = await client.op('listRoutes', 'GET', ROUTES, undefined, { token: partner.token });
    expectStatus(response, 200);
  });

  it('rejects a missing Authorization header with TOKEN_MISSING', () => expectShape1('TOKEN_MISSING', undefined));

  it('rejects a header that is not a Bearer token with TOKEN_INVALID', () =>
    expectShape1('TOKEN_INVALID', undefined, { authorization: 'Basic abc' }));

  it('rejects an unknown token with TOKEN_INVALID', () => expectShape1('TOKEN_INVALID', 'not-a-real-token'));

  it('rejects an expired token, with TOKEN_EXPIRED', async () => {
    const partner = await newPartner(server, client);
    await server.orm.em
      .fork()
      .nativeUpdate(
        AccessToken,
        { credential: { clientId: partner.clientId } },
        { expiresAt: new Date(Date.now() - 1000) },
      );
    await expectShape1('TOKEN_EXPIRED', partner.token);
  });

  it('rejects a revoked token, with TOKEN_REVOKED', async () => {
    const partner = await newPartner(server, client);
    await server.orm.em
      .fork()
      .nativeUpdate(AccessToken, { credential: { clientId: partner.clientId } }, { revokedAt: new Date() });
    await expectShape1('TOKEN_REVOKED', partner.token);
  });

  it('locks out a token at once when its credential is revoked, with CREDENTIAL_REVOKED', async () => {
    const partner = await newPartner(server, client);
    await server.orm.em.fork().nativeUpdate(Credential, { clientId: partner.clientId }, { revokedAt: new Date() });
    await expectShape1('CREDENTIAL_REVOKED', partner.token);
  });

  it('locks out a token at once when its company is deactivated, with COMPANY_INACTIVE', async () => {
    const partner = await newPartner(server, client, { type: CompanyType.SalesCompany });
    await server.orm.em.fork().nativeUpdate(Company, { id: partner.companyId }, { active: false });
    await expectShape1('COMPANY_INACTIVE', partner.token);
  });

  it('checks the token before validating the request', async () => {
    const response = await client.op('createQuote', 'POST', '/api/external/v1/reference/quote', { nonsense: true });
    expectStatus(response, 401);
  });
});

describe('expired access tokens', () => {
  // Background jobs on: the periodic token purge is what is under test.
  const { server, client } = useTestServer({ env: { DOCUMENT_PURGE_INTERVAL_SECONDS: '1' }, backgroundJobs: true });

  const tokensOf = (clientId: string) => server.orm.em.fork().count(AccessToken, { credential: { clientId } });

  it('are purged on the purge schedule (DOCUMENT_PURGE_INTERVAL_SECONDS), while live tokens stay and work', async () => {
    const [expired, live] = [await newPartner(server, client), await newPartner(server, client)];
    await server.orm.em
      .fork()
      .nativeUpdate(
        AccessToken,
        { credential: { clientId: expired.clientId } },
        { expiresAt: new Date(Date.now() - 1000) },
      );
    expect(
      await eventually(
        () => tokensOf(expired.clientId),
        (count) => count === 0,
      ),
    ).toBe(0);
    expect(await tokensOf(live.clientId)).toBe(1);
    expectStatus(await client.op('listRoutes', 'GET', ROUTES, undefined, { token: live.token }), 200);
  });
});
