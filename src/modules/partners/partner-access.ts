import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createCredential, issueClientSecret, markCredentialRevoked } from '../auth';
import { Company, type CompanyType } from './entities/company';
import { Credential } from '../auth/entities/credential';

/** A new partner company; `commissionPercent` (0 to 100) also caps its codes' direct discount. */
export async function createCompany(
  em: EntityManager,
  fields: { name: string; type: CompanyType; commissionPercent: number },
): Promise<Company> {
  return em.transactional(async (tx) =>
    tx.create(Company, {
      name: fields.name,
      type: fields.type,
      commissionPercent: fields.commissionPercent.toFixed(2),
    }),
  );
}

/** A new credential of a company; the secret is returned this once and stored only as a hash. */
export async function issueCredential(
  em: EntityManager,
  companyId: string,
): Promise<{ clientId: string; clientSecret: string; companyId: string }> {
  const { secret: clientSecret, secretHash } = issueClientSecret();
  return em.transactional(async (tx) => {
    const owner = await tx.findOneOrFail(Company, companyId, {
      failHandler: () => new Error(`no company ${companyId}`),
    });
    const credential = createCredential(tx, {
      clientId: `pk_${randomBytes(12).toString('hex')}`,
      secretHash,
      company: owner,
    });
    return { clientId: credential.clientId, clientSecret, companyId: owner.id };
  });
}

/**
 * The operator's changes that end a partner's access, in one place for every caller (today the
 * operator CLI). Each runs in one transaction; the database's triggers NOTIFY the servers' bearer
 * check caches in that same transaction (migration TokenCheckNotify), so the tokens stop working
 * in every server process as the change commits.
 */
export async function deactivateCompany(
  em: EntityManager,
  companyId: string,
): Promise<{ id: string; active: boolean }> {
  return em.transactional(async (tx) => {
    const company = await tx.findOneOrFail(Company, companyId, {
      failHandler: () => new Error(`no company ${companyId}`),
    });
    company.active = false;
    return { id: company.id, active: company.active };
  });
}

/** Revokes a credential and every token still open under it. */
export async function revokeCredential(
  em: EntityManager,
  clientId: string,
): Promise<{ clientId: string; revokedAt: string }> {
  return em.transactional(async (tx) => {
    const credential = await tx.findOneOrFail(
      Credential,
      { clientId },
      { failHandler: () => new Error(`no credential ${clientId}`) },
    );
    const revokedAt = new Date();
    await markCredentialRevoked(tx, credential, revokedAt);
    return { clientId, revokedAt: revokedAt.toISOString() };
  });
}
