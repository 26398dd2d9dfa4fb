import type { EntityManager } from '@mikro-orm/postgresql';
import { CompanyType } from '../partners/entities/company';
import { AccessToken } from './entities/access-token';
import { Credential } from './entities/credential';
import { newAccessToken, tokenHash, verifyClientSecret } from './rules/credential-secret';
// Named as before the error kinds moved to kernel/errors (the 401 shape is http/error-response's choice).
import { unauthenticated as unauthorized } from '../../kernel/errors';
import type { Schemas } from '../../kernel/http/wire';
import { runPrepared, type PreparedStatement } from '../../kernel/db/prepared-statement';
import type { Principal } from '../../kernel/http/request-scope';
import { TokenCheckCache } from './token-check-cache';

declare module '../../kernel/http/request-scope' {
  /** What a bearer token tells about its holder, besides the company the kernel counts by. */
  interface Principal {
    companyType: CompanyType;
    companyName: string;
    commissionPercent: string;
    credentialId: string;
  }
}

/**
 * How token requests are limited (the HTTP layer counts them per client address, see
 * http/rate-limits). Wrong secrets count against the sender, never against the clientId alone, so
 * a stranger naming a partner's clientId cannot lock the partner out.
 */
export interface TokenAttemptLimits {
  /** Counts this attempt as a failure in advance (so a burst cannot slip under the limit); throws when the sender failed too often. */
  reserve(): Promise<void>;
  /** The secret was right: the failure is taken back and a token counted for the clientId; throws when it took too many. */
  accept(): Promise<void>;
}

/** Wrong secret and unknown clientId answer alike, in message and in time. */
export async function issueToken(
  em: EntityManager,
  clientId: string,
  clientSecret: string,
  ttlSeconds: number,
  limits: TokenAttemptLimits,
): Promise<Schemas['Token']> {
  await limits.reserve();
  const credential = await em.findOne(Credential, { clientId }, { populate: ['company', 'secretHash'] });
  const secretMatches = await verifyClientSecret(clientSecret, credential?.secretHash);
  if (!credential || !secretMatches) throw unauthorized('Invalid client credentials').coded('INVALID_CREDENTIALS');
  await limits.accept();
  if (credential.revokedAt) throw unauthorized('Credential has been revoked').coded('CREDENTIAL_REVOKED');
  if (!credential.company.active) throw unauthorized('Company account is inactive').coded('COMPANY_INACTIVE');

  const accessToken = newAccessToken();
  em.create(AccessToken, {
    tokenHash: tokenHash(accessToken),
    credential,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  await em.flush();
  return { accessToken, tokenType: 'Bearer', expiresIn: ttlSeconds };
}

const BEARER_CHECK: PreparedStatement = {
  name: 'bearer-check',
  text: `select t.expires_at, t.revoked_at as token_revoked_at, c.id as credential_id, c.revoked_at as credential_revoked_at,
                co.id as company_id, co.type as company_type, co.name as company_name, co.active as company_active,
                co.commission_percent
           from access_token t
           join credential c on c.id = t.credential_id
           join company co on co.id = c.company_id
          where t.token_hash = $1`,
};

interface TokenRow {
  // Timestamps arrive as PostgreSQL text: the ORM pool turns off the driver's date parsing.
  expires_at: string;
  token_revoked_at: string | null;
  credential_id: string;
  credential_revoked_at: string | null;
  company_id: string;
  company_type: CompanyType;
  company_name: string;
  company_active: boolean;
  commission_percent: string;
}

/** A cache that never listens: every check goes to the database (tests, tools, the CLI). */
const UNCACHED = new TokenCheckCache(0);

/**
 * Checks a bearer token: from `cache` while it is listening for revocations (see
 * token-check-cache), else against the database (one indexed join), so that a revoked credential,
 * token or deactivated company is locked out at once, in every server process.
 */
export async function authenticate(
  em: EntityManager,
  bearer: string,
  cache: TokenCheckCache = UNCACHED,
): Promise<Principal> {
  const hash = tokenHash(bearer);
  const cached = cache.get(hash);
  if (cached) return cached;
  const ticket = cache.ticket();
  const rows = await runPrepared<TokenRow>(em, BEARER_CHECK, [hash]);
  const row = rows[0];
  if (!row) throw unauthorized('Invalid access token').coded('TOKEN_INVALID');
  if (row.token_revoked_at) throw unauthorized('Access token has been revoked').coded('TOKEN_REVOKED');
  const expiresAtMs = new Date(row.expires_at).getTime();
  if (expiresAtMs <= Date.now()) throw unauthorized('Access token has expired').coded('TOKEN_EXPIRED');
  if (row.credential_revoked_at) throw unauthorized('Credential has been revoked').coded('CREDENTIAL_REVOKED');
  if (!row.company_active) throw unauthorized('Company account is inactive').coded('COMPANY_INACTIVE');
  const principal: Principal = {
    companyId: row.company_id,
    companyType: row.company_type,
    companyName: row.company_name,
    commissionPercent: row.commission_percent,
    credentialId: row.credential_id,
  };
  cache.set(ticket, hash, principal, expiresAtMs);
  return principal;
}
