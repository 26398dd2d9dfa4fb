import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config';
import { liveProvidersEnv } from '../support/live-providers-env';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

const LIVE_PROVIDERS = liveProvidersEnv();

describe('configuration validated at start', () => {
  it('starts with no variable set, on documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      nodeEnv: 'development',
      dbPoolMax: 10,
      tokenTtlSeconds: 3600,
      currency: 'NPR',
      shutdownTimeoutMs: 10_000,
    });
    expect(config.rateLimits).toEqual({
      windowSeconds: 60,
      tokenPerClient: 60,
      tokenPerAddress: 300,
      tokenPerClientAddress: 20,
      promoPerCompany: 600,
      uploadPerCompany: 300,
      uploadBytesPerCompany: 2 * 1024 ** 3,
      quotePerCompany: 600,
      orderPerCompany: 300,
      travellerPerCompany: 300,
      payPerCompany: 300,
      certificatePerCompany: 600,
      statementPdfPerCompany: 10,
      verifyPerAddress: 60,
      providerReturnPerAddress: 30,
      webhookPerCompany: 120,
    });
    expect(config.certificate).toEqual({
      assistancePhone: '+977 1 4000 000',
      assistanceEmail: 'assistance@himalayantrekcover.example',
      policyWordingUrl: 'https://himalayantrekcover.example/policy-wording',
      policyWordingVersion: 'SANDBOX-WORDING',
      insurerLicence: 'no licence (sandbox placeholder)',
      insurerAddress: 'no address (sandbox placeholder)',
      intermediaryRole: 'Corporate agent of the insurer (sandbox placeholder)',
      intermediaryLicence: 'no licence (sandbox placeholder)',
    });
    expect(config.maxDraftsPerCompany).toBe(500);
    expect(config.documentStorage).toEqual({ kind: 'disk' });
    expect(config.metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined, onApiListener: true });
    expect(config.trustProxy).toBe(false);
    // 10 s for the headers, then 10 MiB at 128 KiB/s; 10 s for a JSON body; 256 connections per address; a streamed answer cut after 15 s unread or 10 min in all.
    expect(config.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 90_000,
      minUploadBytesPerSecond: 128 * 1024,
      jsonBodyTimeoutMs: 10_000,
      maxConnectionsPerAddress: 256,
      streamStallMs: 15_000,
      streamDeadlineMs: 600_000,
    });
  });

  it('caps connections per address only when no proxy is trusted, unless told (issue 30)', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).http.maxConnectionsPerAddress).toBe(0);
    expect(
      loadConfig({ TRUST_PROXY: '1', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' }).http.maxConnectionsPerAddress,
    ).toBe(500);
    expect(loadConfig({ HTTP_JSON_BODY_TIMEOUT_SECONDS: '3' }).http.jsonBodyTimeoutMs).toBe(3000);
  });

  it('runs sandbox payments and demo partners only when asked for: the embedded default asks, a DATABASE_URL deployment does not', () => {
    expect(loadConfig({})).toMatchObject({ seedDemoData: true, payments: { mode: 'sandbox' } });
    const deployed = loadConfig({ DATABASE_URL: 'postgresql://app@db/app' });
    expect(deployed).toMatchObject({ seedDemoData: false, payments: { mode: 'live' } });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://app@db/app', PAYMENT_MODE: 'sandbox', SEED_DEMO_DATA: 'true' }),
    ).toMatchObject({ seedDemoData: true, payments: { mode: 'sandbox' } });
    expect(loadConfig({ NODE_ENV: 'production', ...LIVE_PROVIDERS })).toMatchObject({
      seedDemoData: false,
      payments: { mode: 'live' },
    });
    expect(problemsOf({ NODE_ENV: 'production', SEED_DEMO_DATA: 'true', ...LIVE_PROVIDERS })).toEqual([
      'SEED_DEMO_DATA=true is not allowed when NODE_ENV=production',
    ]);
    expect(problemsOf({ PAYMENT_MODE: 'fake' })).toEqual(['PAYMENT_MODE must be one of sandbox, live (got "fake")']);
  });

  it('refuses in production gateway secrets that are short, a repeated pattern or published, one line each', () => {
    // Drawn here: a strong secret written into the repository would be a published one.
    const strong = () => randomBytes(32).toString('base64url');
    expect(
      problemsOf({
        NODE_ENV: 'production',
        CARD_GATEWAY_SECRET: strong(),
        WALLET_GATEWAY_SECRET: strong(),
        ...LIVE_PROVIDERS,
      }),
    ).toEqual([]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        CARD_GATEWAY_SECRET: 'a'.repeat(32),
        WALLET_GATEWAY_SECRET: 'sandbox-secret-annapurna-adventure',
        ...LIVE_PROVIDERS,
      }),
    ).toEqual([
      'CARD_GATEWAY_SECRET is a repeated pattern; use 32 random bytes, e.g. `openssl rand -base64 32`',
      'WALLET_GATEWAY_SECRET contains a published secret; use 32 random bytes, e.g. `openssl rand -base64 32`',
    ]);
    expect(
      problemsOf({ NODE_ENV: 'production', CARD_GATEWAY_SECRET: 'abc123'.repeat(6).slice(0, 34), ...LIVE_PROVIDERS }),
    ).toEqual(['CARD_GATEWAY_SECRET is a repeated pattern; use 32 random bytes, e.g. `openssl rand -base64 32`']);
    expect(problemsOf({ CARD_GATEWAY_SECRET: 'short' })).toEqual([
      'CARD_GATEWAY_SECRET must be at least 32 characters',
    ]);
  });

  it('maps each gateway to a provider: sandbox by default in sandbox mode, none in live mode, and production refuses a gateway without one in one line', () => {
    expect(loadConfig({}).payments.providers).toEqual({ card_gateway: 'sandbox', wallet_gateway: 'sandbox' });
    expect(loadConfig({ DATABASE_URL: 'postgresql://app@db/app' }).payments.providers).toEqual({
      card_gateway: undefined,
      wallet_gateway: undefined,
    });
    expect(problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, WALLET_GATEWAY_PROVIDER: '' })).toEqual([
      'WALLET_GATEWAY_PROVIDER is not set: in production wallet_gateway needs a live provider (khalti or esewa)',
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgresql://app@db/app', CARD_GATEWAY_PROVIDER: 'sandbox' })).toEqual([
      'CARD_GATEWAY_PROVIDER=sandbox needs PAYMENT_MODE=sandbox',
    ]);
    expect(problemsOf({ CARD_GATEWAY_PROVIDER: 'stripe' })).toEqual([
      'CARD_GATEWAY_PROVIDER must be one of sandbox, khalti, esewa (got "stripe")',
    ]);
  });

  it('points providers at their test environments outside production and their live ones in production, and refuses test hosts, test credentials and plain HTTP there', () => {
    const test = loadConfig({
      CARD_GATEWAY_PROVIDER: 'khalti',
      WALLET_GATEWAY_PROVIDER: 'esewa',
      KHALTI_SECRET_KEY: 'test-key',
    }).payments;
    expect(test.khalti).toMatchObject({ baseUrl: 'https://dev.khalti.com/api/v2' });
    expect(test.esewa).toMatchObject({
      productCode: 'EPAYTEST',
      formUrl: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
      statusUrl: 'https://rc.esewa.com.np/api/epay/transaction/status/',
    });
    const live = loadConfig({ NODE_ENV: 'production', ...LIVE_PROVIDERS }).payments;
    expect(live.khalti).toMatchObject({ baseUrl: 'https://khalti.com/api/v2' });
    expect(live.esewa).toMatchObject({
      formUrl: 'https://epay.esewa.com.np/api/epay/main/v2/form',
      statusUrl: 'https://epay.esewa.com.np/api/epay/transaction/status/',
    });
    expect(problemsOf({ CARD_GATEWAY_PROVIDER: 'khalti' })).toEqual([
      expect.stringMatching(/^KHALTI_SECRET_KEY is required/),
    ]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ...LIVE_PROVIDERS,
        KHALTI_BASE_URL: 'https://dev.khalti.com/api/v2',
        ESEWA_STATUS_URL: 'http://epay.esewa.com.np/api/epay/transaction/status/',
        ESEWA_PRODUCT_CODE: 'EPAYTEST',
      }),
    ).toEqual([
      "KHALTI_BASE_URL points at a provider's test environment, which takes no real money, while NODE_ENV=production",
      "ESEWA_PRODUCT_CODE or ESEWA_SECRET_KEY is eSewa's published test credential, not allowed when NODE_ENV=production",
      'ESEWA_STATUS_URL must be a https:// URL (got http://...)',
    ]);
    expect(problemsOf({ CURRENCY: 'USD', CARD_GATEWAY_PROVIDER: 'esewa' })).toEqual([
      'Khalti and eSewa take NPR only: CURRENCY must be NPR',
    ]);
  });

  it('reads TRUST_PROXY as Express does, but never "trust everyone"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::1',
    ]);
    for (const value of ['true', '10.0.0.0/33', 'proxy.example.com']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([
        expect.stringMatching(/^TRUST_PROXY must be false, a number of proxies/),
      ]);
    }
  });

  it('refuses a TRUST_PROXY that trusts everyone in disguise: a range wider than /8 (IPv4) or /32 (IPv6), or a list covering every address', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::/32, ::ffff:10.1.0.0/112' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
      '::ffff:10.1.0.0/112',
    ]);
    expect(problemsOf({ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1' })).toEqual([
      'TRUST_PROXY must name proxies, not whole networks: 0.0.0.0/1, 128.0.0.0/1 are wider than a /8 of IPv4 or a /32 of IPv6 addresses',
    ]);
    // An IPv6 range holding the IPv4-mapped block is every IPv4 client to Express's proxy-addr.
    for (const value of ['0.0.0.0/0', '10.0.0.0/7', '::/0', '2000::/3', '::ffff:0:0/96', '::/64']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([
        expect.stringMatching(/^TRUST_PROXY must name proxies, not whole networks: /),
      ]);
    }
    const everyEight = Array.from({ length: 256 }, (_, octet) =>
      octet === 10 || octet === 127 ? (octet === 10 ? 'uniquelocal' : 'loopback') : `${octet}.0.0.0/8`,
    );
    expect(problemsOf({ TRUST_PROXY: everyEight.join(',') })).toEqual([
      'TRUST_PROXY must name proxies, not everyone: together its entries cover every IPv4 address',
    ]);
  });

  it('refuses a TRUST_PROXY list that covers nearly everyone: all /8s but one, or more than four /8s of IPv4 together (issue 40)', () => {
    const allButOne = Array.from({ length: 255 }, (_, octet) => `${octet}.0.0.0/8`);
    expect(problemsOf({ TRUST_PROXY: allButOne.join(',') })).toEqual([
      'TRUST_PROXY must name proxies, not everyone: together its entries cover 255.0 /8s of IPv4 addresses (at most 4 together)',
    ]);
    expect(problemsOf({ TRUST_PROXY: '1.0.0.0/8,2.0.0.0/8,3.0.0.0/8,4.0.0.0/8,5.0.0.0/9' })).toEqual([
      expect.stringMatching(/cover 4\.5 \/8s of IPv4 addresses/),
    ]);
    // A CDN's published ranges and the private networks stay well inside.
    expect(
      loadConfig({
        TRUST_PROXY: '173.245.48.0/20,103.21.244.0/22,104.16.0.0/13,172.64.0.0/13,10.0.0.0/8,uniquelocal,loopback',
      }).trustProxy,
    ).toHaveLength(7);
  });

  it('names every bad variable in one message, not only the first', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DB_POOL_MAX: '0',
      LOG_LEVEL: 'loud',
      CURRENCY: 'rupees',
      SEED_DEMO_DATA: 'maybe',
    });
    expect(problems).toHaveLength(5);
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be an integer from 0 to 65535 (got "eighty")',
        'DB_POOL_MAX must be an integer from 1 to 200 (got "0")',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        'CURRENCY must be an ISO 4217 code such as NPR (got "rupees")',
        'SEED_DEMO_DATA must be true or false (got "maybe")',
      ]),
    );
  });

  it('takes the assistance contact printed on certificates only when a traveller can dial and write to it', () => {
    expect(
      loadConfig({ ASSISTANCE_PHONE: '+977-1-5970111', ASSISTANCE_EMAIL: 'rescue@cover.example' }).certificate,
    ).toEqual({
      assistancePhone: '+977-1-5970111',
      assistanceEmail: 'rescue@cover.example',
      policyWordingUrl: 'https://himalayantrekcover.example/policy-wording',
      policyWordingVersion: 'SANDBOX-WORDING',
      insurerLicence: 'no licence (sandbox placeholder)',
      insurerAddress: 'no address (sandbox placeholder)',
      intermediaryRole: 'Corporate agent of the insurer (sandbox placeholder)',
      intermediaryLicence: 'no licence (sandbox placeholder)',
    });
    expect(problemsOf({ ASSISTANCE_PHONE: '01 4000 000' })).toEqual([
      'ASSISTANCE_PHONE must be an international number such as +977 1 4000 000 (got "01 4000 000")',
    ]);
    expect(problemsOf({ ASSISTANCE_PHONE: '+977 1 4000 000 (24h)' })).toHaveLength(1);
    expect(problemsOf({ ASSISTANCE_EMAIL: 'rescue desk' })).toEqual([
      'ASSISTANCE_EMAIL must be an e-mail address (got "rescue desk")',
    ]);
  });

  it('rejects a misspelt NODE_ENV instead of running production with demo credentials', () => {
    expect(problemsOf({ NODE_ENV: 'prod' })).toEqual([
      'NODE_ENV must be one of development, test, production (got "prod")',
    ]);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL without printing its password', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://app:hunter2@db/app' });
    expect(problems).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL (got mysql://...)']);
    expect(problems.join()).not.toContain('hunter2');
    expect(problemsOf({ DATABASE_URL: 'not a url' })).toEqual([
      'DATABASE_URL must be a URL (got a value that does not parse)',
    ]);
  });

  it('rejects a PUBLIC_BASE_URL that is not http or https', () => {
    expect(problemsOf({ PUBLIC_BASE_URL: 'ftp://example.com' })).toEqual([
      'PUBLIC_BASE_URL must be a http:// or https:// URL (got ftp://...)',
    ]);
  });

  it('asks production for an https PUBLIC_BASE_URL that is not this machine: QR codes and provider return URLs are built from it', () => {
    expect(
      loadConfig({ NODE_ENV: 'production', ...LIVE_PROVIDERS, PUBLIC_BASE_URL: 'https://partners.example.com/' })
        .publicBaseUrl,
    ).toBe('https://partners.example.com');
    const { PUBLIC_BASE_URL: _base, ...withoutBase } = LIVE_PROVIDERS;
    expect(problemsOf({ NODE_ENV: 'production', ...withoutBase })).toEqual([
      'PUBLIC_BASE_URL is not set: in production QR codes and provider return URLs are built from it; set the https address partners and payment providers reach the service at, e.g. https://api.example.com',
    ]);
    expect(
      problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, PUBLIC_BASE_URL: 'http://partners.example.com' }),
    ).toEqual(['PUBLIC_BASE_URL must be an https URL in production (got http://...)']);
    for (const local of [
      'https://localhost:3000',
      'https://LOCALHOST.',
      'https://127.0.0.1',
      'https://127.1.2.3',
      'https://0.0.0.0',
      'https://[::1]',
      'https://[::ffff:127.0.0.1]',
      'https://app.localhost',
    ]) {
      expect(problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, PUBLIC_BASE_URL: local })).toEqual([
        expect.stringMatching(/^PUBLIC_BASE_URL points at this machine \(/),
      ]);
    }
    // Outside production the fallback stays this machine, as before.
    expect(loadConfig({}).publicBaseUrl).toBe('http://localhost:3000');
  });

  it('refuses in production a PUBLIC_BASE_URL with a path, a query or a fragment: every link appends its own path to it', () => {
    for (const base of [
      'https://partners.example.com/pbs',
      'https://partners.example.com/?x=1',
      'https://partners.example.com/#top',
    ]) {
      expect({
        base,
        problems: problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, PUBLIC_BASE_URL: base }),
      }).toEqual({
        base,
        problems: [
          expect.stringMatching(
            /^PUBLIC_BASE_URL must be the service's origin only, without a path, query or fragment/,
          ),
        ],
      });
    }
  });

  it("refuses in production the sandbox's placeholder assistance phone and e-mail and a policy wording on a reserved example domain", () => {
    const problems = (env: Record<string, string>) => problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, ...env });
    expect(problems({ ASSISTANCE_PHONE: '+977-1-4000000' })).toEqual([
      'ASSISTANCE_PHONE is the sandbox placeholder +977 1 4000 000; in production set the real 24-hour assistance number',
    ]);
    expect(problems({ ASSISTANCE_EMAIL: 'assistance@himalayantrekcover.example' })).toEqual([
      "ASSISTANCE_EMAIL is on a reserved example domain (himalayantrekcover.example); in production set the real assistance desk's address",
    ]);
    expect(problems({ POLICY_WORDING_URL: 'https://himalayantrekcover.example/policy-wording' })).toEqual([
      'POLICY_WORDING_URL is on a reserved example domain (himalayantrekcover.example); in production link the real policy wording',
    ]);
    expect(problems({ INSURER_LICENCE: 'no licence (sandbox placeholder)' })).toEqual([
      'INSURER_LICENCE is the sandbox placeholder "no licence (sandbox placeholder)"',
    ]);
    expect(problems({})).toEqual([]);
  });

  it("refuses in production a PUBLIC_BASE_URL on an internal address in any form, on this machine's own host name, or with a user name (issue 40)", () => {
    const problems = (base: string) => problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS, PUBLIC_BASE_URL: base });
    for (const internal of [
      'https://[::127.0.0.1]',
      'https://10.1.2.3',
      'https://192.168.1.10',
      'https://169.254.169.254',
      'https://[fd00::1]',
      'https://100.64.0.1',
    ]) {
      expect({ internal, problems: problems(internal) }).toEqual({
        internal,
        problems: [expect.stringMatching(/^PUBLIC_BASE_URL points at (an internal address|this machine) \(/)],
      });
    }
    expect(problems(`https://${hostname()}`)).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL points at this machine \(/),
    ]);
    expect(problems('https://ops:secret@partners.example.com')).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL must not carry a user name or password/),
    ]);
    expect(problems('https://203.0.113.7')).toEqual([]);
  });

  it("compares provider hosts with production's test-host list normalised: a trailing dot or capitals do not pass", () => {
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ...LIVE_PROVIDERS,
        KHALTI_BASE_URL: 'https://dev.khalti.com./api/v2',
        ESEWA_FORM_URL: 'https://RC-EPAY.esewa.com.np./api/epay/main/v2/form',
      }),
    ).toEqual([
      "KHALTI_BASE_URL points at a provider's test environment, which takes no real money, while NODE_ENV=production",
      "ESEWA_FORM_URL points at a provider's test environment, which takes no real money, while NODE_ENV=production",
    ]);
  });

  it('reads the rate limits, where 0 turns a limit off', () => {
    const config = loadConfig({
      RATE_LIMIT_WINDOW_SECONDS: '10',
      RATE_LIMIT_TOKEN_PER_CLIENT: '0',
      RATE_LIMIT_PROMO_PER_COMPANY: '5',
    });
    expect(config.rateLimits).toMatchObject({ windowSeconds: 10, tokenPerClient: 0, promoPerCompany: 5 });
    expect(problemsOf({ RATE_LIMIT_WINDOW_SECONDS: '0' })).toEqual([
      'RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 3600 (got "0")',
    ]);
  });

  it('watches undecided provider payments at least 7 days and paid ones PAYMENT_REVERSAL_WATCH_DAYS, with back-off', () => {
    expect(loadConfig({}).payments.watch).toEqual({
      decisionWatchDays: 7,
      reversalWatchDays: 30,
      decisionFirstSeconds: 60,
      decisionMaxSeconds: 21_600,
      reversalFirstSeconds: 3600,
      reversalMaxSeconds: 86_400,
    });
    expect(problemsOf({ PROVIDER_DECISION_WATCH_DAYS: '1' })).toEqual([
      'PROVIDER_DECISION_WATCH_DAYS must be an integer from 7 to 90 (got "1")',
    ]);
    expect(loadConfig({ PAYMENT_REVERSAL_WATCH_DAYS: '0' }).payments.watch.reversalWatchDays).toBe(0);
  });

  it('bounds the cluster size and the shutdown grace period', () => {
    expect(problemsOf({ CLUSTER_WORKERS: '0', SHUTDOWN_TIMEOUT_MS: '-1' })).toEqual([
      'SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 300000 (got "-1")',
      'CLUSTER_WORKERS must be an integer from 1 to 64 (got "0")',
    ]);
  });

  it('lets a partner upload a 50-traveller batch (150 documents) in one window but stops a flood well before 1,000 uploads a minute', () => {
    const { rateLimits, maxDraftsPerCompany } = loadConfig({});
    expect(rateLimits.windowSeconds).toBe(60);
    expect(rateLimits.uploadPerCompany).toBeGreaterThanOrEqual(150);
    expect(rateLimits.uploadPerCompany).toBeLessThanOrEqual(500);
    expect(rateLimits.uploadBytesPerCompany).toBeGreaterThanOrEqual(150 * 10 * 1024 * 1024);
    expect(maxDraftsPerCompany).toBeGreaterThanOrEqual(150);
  });

  it('reads S3 storage settings, and refuses an S3 store without a bucket or with half a key pair', () => {
    const s3 = loadConfig({
      DOCUMENT_STORAGE: 's3',
      S3_BUCKET: 'pbs-documents',
      S3_PREFIX: 'prod/',
      S3_ENDPOINT: 'https://minio.internal:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'AKIA-EXAMPLE',
      S3_SECRET_ACCESS_KEY: 'example-secret',
    });
    expect(s3.documentStorage).toEqual({
      kind: 's3',
      bucket: 'pbs-documents',
      prefix: 'prod/',
      endpoint: 'https://minio.internal:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA-EXAMPLE', secretAccessKey: 'example-secret' },
    });
    expect(problemsOf({ DOCUMENT_STORAGE: 's3', S3_ACCESS_KEY_ID: 'only-half' })).toEqual([
      'S3_BUCKET must be set when DOCUMENT_STORAGE=s3',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)',
    ]);
    expect(problemsOf({ DOCUMENT_STORAGE: 'nfs' })).toEqual(['DOCUMENT_STORAGE must be one of disk, s3 (got "nfs")']);
  });

  it('asks production for the real assistance contacts the certificates print: no default there', () => {
    const { ASSISTANCE_PHONE: _phone, ASSISTANCE_EMAIL: _email, ...providersOnly } = LIVE_PROVIDERS;
    expect(problemsOf({ NODE_ENV: 'production', ...providersOnly })).toEqual([
      "ASSISTANCE_PHONE is not set: in production the certificate's 24-hour assistance number must be the real one",
      "ASSISTANCE_EMAIL is not set: in production the certificate's assistance e-mail must be the real one",
    ]);
    expect(loadConfig({}).certificate.assistancePhone).toBe('+977 1 4000 000');
  });

  it("asks production for what compliance reads on a certificate: the wording's version, the insurer's licence and address, the intermediary's role and licence", () => {
    const {
      POLICY_WORDING_VERSION: _v,
      INSURER_LICENCE: _l,
      INSURER_ADDRESS: _a,
      INTERMEDIARY_ROLE: _r,
      INTERMEDIARY_LICENCE: _i,
      ...without
    } = LIVE_PROVIDERS;
    expect(problemsOf({ NODE_ENV: 'production', ...without })).toEqual([
      'POLICY_WORDING_VERSION is not set: in production the certificate must name the edition of the policy wording it is issued under',
      "INSURER_LICENCE is not set: in production the certificate must print the insurer's licence with the regulator",
      "INSURER_ADDRESS is not set: in production the certificate must print the insurer's registered address",
      'INTERMEDIARY_ROLE is not set: in production the certificate must say what its seller is to the insurer',
      "INTERMEDIARY_LICENCE is not set: in production the certificate must print the intermediary's licence",
    ]);
    expect(problemsOf({ NODE_ENV: 'production', ...LIVE_PROVIDERS })).toEqual([]);
    expect(loadConfig({ INSURER_LICENCE: 'NIA 07/2061' }).certificate.insurerLicence).toBe('NIA 07/2061');
  });

  it("asks production for the insurer's PAN/VAT number the commission statement prints, and gives elsewhere a placeholder that says what it is", () => {
    const { INSURER_PAN: _pan, ...without } = LIVE_PROVIDERS;
    expect(problemsOf({ NODE_ENV: 'production', ...without })).toEqual([
      "INSURER_PAN is not set: in production the commission statement must print the insurer's PAN/VAT number",
    ]);
    expect(loadConfig({}).commissions.insurerPan).toBe('no PAN (sandbox placeholder)');
    expect(loadConfig({ INSURER_PAN: '300012345' }).commissions.insurerPan).toBe('300012345');
  });

  it('asks production for the policy wording the certificates link, as an https URL', () => {
    const { POLICY_WORDING_URL: _wording, ...withoutWording } = LIVE_PROVIDERS;
    expect(problemsOf({ NODE_ENV: 'production', ...withoutWording })).toEqual([
      'POLICY_WORDING_URL is not set: in production the certificate must link the real policy wording',
    ]);
    expect(problemsOf({ POLICY_WORDING_URL: 'http://cover.example/wording' })).toEqual([
      'POLICY_WORDING_URL must be a https:// URL (got http://...)',
    ]);
    expect(loadConfig({ POLICY_WORDING_URL: 'https://cover.example/wording.pdf' }).certificate.policyWordingUrl).toBe(
      'https://cover.example/wording.pdf',
    );
  });

  it('keeps metrics off the partner listener in production unless a token guards them, and off non-loopback hosts without one', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...LIVE_PROVIDERS }).metrics.onApiListener).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', ...LIVE_PROVIDERS, METRICS_TOKEN: 'a-long-scrape-token' }).metrics
        .onApiListener,
    ).toBe(true);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: undefined,
      onApiListener: false,
    });
    expect(problemsOf({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toEqual([
      'METRICS_HOST=0.0.0.0 is not loopback: set METRICS_TOKEN too, or keep METRICS_HOST=127.0.0.1',
    ]);
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN must be at least 16 characters long']);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_ENDPOINTS', () => {
  it('is on in the embedded default of npm start, off in a sandbox on its own database unless set, and refused with live payments', () => {
    expect(loadConfig({}).webhooks.allowLocalEndpoints).toBe(true);
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://app@db/app', PAYMENT_MODE: 'sandbox' }).webhooks.allowLocalEndpoints,
    ).toBe(false);
    expect(
      loadConfig({
        DATABASE_URL: 'postgresql://app@db/app',
        PAYMENT_MODE: 'sandbox',
        WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'true',
      }).webhooks.allowLocalEndpoints,
    ).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'false' }).webhooks.allowLocalEndpoints).toBe(false);
    expect(
      problemsOf({
        DATABASE_URL: 'postgresql://app@db/app',
        ...LIVE_PROVIDERS,
        PAYMENT_MODE: 'live',
        WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'true',
      }),
    ).toContain(
      'WEBHOOK_ALLOW_PRIVATE_ENDPOINTS=true needs PAYMENT_MODE=sandbox: live endpoints must be public HTTPS addresses',
    );
  });
});
