import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../../src/config';
import {
  anyText,
  flag,
  integer,
  oneOf,
  readEnv,
  requiredText,
  secret,
  url,
  type Env,
} from '../../src/kernel/settings/env-schema';
import { liveProvidersEnv } from '../support/live-providers-env';

const ROOT = path.resolve(__dirname, '../..');

const schema = z.object({
  PORT: integer(0, 65535).default(3000),
  VERBOSE: flag().default(false),
  MODE: oneOf(['sandbox', 'live']).default('sandbox'),
  TOKEN: secret(16).optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  PHONE: requiredText('the certificate prints it'),
  NAME: anyText().default('Himalayan Trek Cover'),
});

const read = (env: Env) => {
  const problems: string[] = [];
  return { values: readEnv(schema, { env, problems }), problems };
};

describe('a settings schema read from the environment (issue 41: zod instead of the hand-written reader)', () => {
  it('types each variable by its schema and takes the default of an unset or blank one', () => {
    expect(
      read({
        PORT: '8080',
        VERBOSE: 'YES',
        MODE: 'live',
        TOKEN: 'a-long-scrape-token',
        DATABASE_URL: 'postgresql://app@db/app',
        PHONE: '+977 1 4000 000',
        NAME: 'Cover',
      }),
    ).toEqual({
      values: {
        PORT: 8080,
        VERBOSE: true,
        MODE: 'live',
        TOKEN: 'a-long-scrape-token',
        DATABASE_URL: 'postgresql://app@db/app',
        PHONE: '+977 1 4000 000',
        NAME: 'Cover',
      },
      problems: [],
    });
    expect(read({ PORT: '', VERBOSE: '', NAME: '', PHONE: '1' }).values).toEqual({
      PORT: 3000,
      VERBOSE: false,
      MODE: 'sandbox',
      TOKEN: undefined,
      DATABASE_URL: undefined,
      PHONE: '1',
      NAME: 'Himalayan Trek Cover',
    });
  });

  it("names every bad variable in one line of its own, in the schema's order, and goes on with its default", () => {
    const { values, problems } = read({
      PORT: 'eighty',
      VERBOSE: 'maybe',
      MODE: 'fake',
      TOKEN: 'short',
      DATABASE_URL: 'mysql://app:hunter2@db/app',
    });
    expect(problems).toEqual([
      'PORT must be an integer from 0 to 65535 (got "eighty")',
      'VERBOSE must be true or false (got "maybe")',
      'MODE must be one of sandbox, live (got "fake")',
      'TOKEN must be at least 16 characters long',
      'DATABASE_URL must be a postgres:// or postgresql:// URL (got mysql://...)',
      'PHONE is not set: the certificate prints it',
    ]);
    expect(values).toMatchObject({ PORT: 3000, VERBOSE: false, MODE: 'sandbox', NAME: 'Himalayan Trek Cover' });
    // A secret's value and a URL's password never reach a message.
    expect(problems.join('\n')).not.toMatch(/short|hunter2/);
  });

  it('reads integers as Number() reads them and refuses fractions and values out of bounds', () => {
    expect(['0x10', '1e3', ' 7 '].map((PORT) => read({ PORT, PHONE: '1' }).values.PORT)).toEqual([16, 1000, 7]);
    expect(['1.5', '65536', '-1'].map((PORT) => read({ PORT, PHONE: '1' }).problems)).toEqual([
      ['PORT must be an integer from 0 to 65535 (got "1.5")'],
      ['PORT must be an integer from 0 to 65535 (got "65536")'],
      ['PORT must be an integer from 0 to 65535 (got "-1")'],
    ]);
  });
});

/** Every variable a settings schema reads, found by reading the settings of each kind of deployment through an environment that records what is asked of it. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  const recording = (env: Env): Env =>
    new Proxy(env, { get: (target, name: string) => (names.add(name), target[name]) });
  const deployments: Env[] = [
    {},
    { NODE_ENV: 'production', ...liveProvidersEnv(), DOCUMENT_STORAGE: 's3', S3_BUCKET: 'documents' },
    {
      CARD_GATEWAY_PROVIDER: 'khalti',
      WALLET_GATEWAY_PROVIDER: 'esewa',
      KHALTI_SECRET_KEY: 'test-key',
      METRICS_PORT: '9464',
    },
  ];
  for (const env of deployments) loadConfig(recording(env));
  return names;
}

describe('the settings the operator documentation lists', () => {
  it('documents every variable a settings schema reads, in a table of the README or docs/', () => {
    const documents = [
      path.join(ROOT, 'README.md'),
      ...fs
        .readdirSync(path.join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => path.join(ROOT, 'docs', name)),
    ];
    const tables = documents
      .map((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('|'))
          .join('\n'),
      )
      .join('\n');
    const documented = new Set([...tables.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));
    const undocumented = [...variablesRead()].filter((name) => !documented.has(name));
    expect(undocumented).toEqual([]);
  });
});
