import type { EntityManager } from '@mikro-orm/postgresql';
import { DEMO_PARTNERS } from './demo-partners';
import { verifySecret } from '../auth';
import { Credential } from '../auth/entities/credential';
import { StartupRefusal } from '../../kernel/startup-refusal';

/** The demo partners' clientIds whose published secret still gets a token in this database. */
export async function activeDemoCredentials(em: EntityManager): Promise<string[]> {
  const credentials = await em.find(
    Credential,
    { clientId: { $in: DEMO_PARTNERS.map((partner) => partner.clientId) }, revokedAt: null },
    { populate: ['secretHash'], orderBy: { clientId: 'asc' } },
  );
  const active: string[] = [];
  for (const credential of credentials) {
    const published = DEMO_PARTNERS.find((partner) => partner.clientId === credential.clientId)!.clientSecret;
    if (await verifySecret(published, credential.secretHash)) active.push(credential.clientId);
  }
  return active;
}

/** Production refuses to serve while anyone could take a token with a secret printed in the README. */
export async function refuseActiveDemoCredentials(em: EntityManager): Promise<void> {
  const active = await activeDemoCredentials(em);
  if (active.length === 0) return;
  throw new StartupRefusal(
    `Refusing to start in production: demo credentials with published secrets are active in this database (${active.join(', ')}); ` +
      `revoke each with \`npm run ops -- credential revoke <clientId>\``,
  );
}
