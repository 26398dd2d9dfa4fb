import { ConfigError, loadConfig } from '../../src/config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('configuration validated at start', () => {
  it('starts with no variable set, on documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, nodeEnv: 'development', dbPoolMax: 10, tokenTtlSeconds: 3600, currency: 'NPR', shutdownTimeoutMs: 10_000 });
    expect(config.rateLimits).toEqual({ windowSeconds: 60, tokenPerClient: 60, tokenPerAddress: 1200, promoPerCompany: 600 });
  });

  it('names every bad variable in one message, not only the first', () => {
    const problems = problemsOf({ PORT: 'eighty', DB_POOL_MAX: '0', LOG_LEVEL: 'loud', CURRENCY: 'rupees', SEED_DEMO_DATA: 'maybe' });
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

  it('rejects a misspelt NODE_ENV instead of running production with demo credentials', () => {
    expect(problemsOf({ NODE_ENV: 'prod' })).toEqual(['NODE_ENV must be one of development, test, production (got "prod")']);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL without printing its password', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://app:hunter2@db/app' });
    expect(problems).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL (got mysql://...)']);
    expect(problems.join()).not.toContain('hunter2');
    expect(problemsOf({ DATABASE_URL: 'not a url' })).toEqual(['DATABASE_URL must be a URL (got a value that does not parse)']);
  });

  it('rejects a PUBLIC_BASE_URL that is not http or https', () => {
    expect(problemsOf({ PUBLIC_BASE_URL: 'ftp://example.com' })).toEqual(['PUBLIC_BASE_URL must be a http:// or https:// URL (got ftp://...)']);
  });

  it('reads the rate limits, where 0 turns a limit off', () => {
    const config = loadConfig({ RATE_LIMIT_WINDOW_SECONDS: '10', RATE_LIMIT_TOKEN_PER_CLIENT: '0', RATE_LIMIT_PROMO_PER_COMPANY: '5' });
    expect(config.rateLimits).toMatchObject({ windowSeconds: 10, tokenPerClient: 0, promoPerCompany: 5 });
    expect(problemsOf({ RATE_LIMIT_WINDOW_SECONDS: '0' })).toEqual(['RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 3600 (got "0")']);
  });

  it('bounds the cluster size and the shutdown grace period', () => {
    expect(problemsOf({ CLUSTER_WORKERS: '0', SHUTDOWN_TIMEOUT_MS: '-1' })).toEqual([
      'SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 300000 (got "-1")',
      'CLUSTER_WORKERS must be an integer from 1 to 64 (got "0")',
    ]);
  });
});
