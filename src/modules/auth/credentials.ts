import type { EntityManager } from '@mikro-orm/postgresql';
import type { Company } from '../partners/entities/company';
import { AccessToken } from './entities/access-token';
import { Credential } from './entities/credential';

/**
 * A company's credentials as auth writes them (decision record 0111): partners issues and revokes
 * a company's access, in its own transaction, through these.
 */
export function createCredential(
  tx: EntityManager,
  fields: { clientId: string; secretHash: string; company: Company },
): Credential {
  return tx.create(Credential, fields);
}

/** The credential is revoked, and every token it issued that is still open with it. */
export async function markCredentialRevoked(tx: EntityManager, credential: Credential, at: Date): Promise<void> {
  credential.revokedAt = at;
  await tx.nativeUpdate(AccessToken, { credential, revokedAt: null }, { revokedAt: at });
}
