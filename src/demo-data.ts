import type { EntityManager } from '@mikro-orm/postgresql';
import { type ActiveDemoPartners, activeDemoPartners, deactivateDemoPartners } from './modules/partners';
import { activeDemoPromoCodes, deactivateDemoPromoCodes } from './modules/promos';
import { StartupRefusal } from './kernel/startup-refusal';

/** The operator command that ends every piece of demo data at once (src/cli/demo-command.ts). */
export const DEMO_DEACTIVATE_COMMAND = 'npm run ops -- demo deactivate';

/**
 * The demo data still active in a database: the demo partners' credentials whose published secret
 * still gets a token, the demo companies, their agents, and the promo codes those companies and
 * agents own (HIMALAYA10, ONCE25, PEMBA5 ... are printed in docs/operations.md: anyone could take them).
 * Partners and promos each read and end their own rows (decision record 0111); the demo set is
 * composed here, as promos builds on partners.
 */
export interface ActiveDemoData extends ActiveDemoPartners {
  promoCodes: string[];
}

export async function activeDemoData(em: EntityManager): Promise<ActiveDemoData> {
  return { ...(await activeDemoPartners(em)), promoCodes: await activeDemoPromoCodes(em) };
}

/**
 * Revokes the demo credentials (and their open tokens) and deactivates the demo companies, agents
 * and codes, in one transaction; the database's triggers tell every server's bearer check cache.
 * Returns what it ended; nothing when there was nothing active.
 */
export function deactivateDemoData(em: EntityManager): Promise<ActiveDemoData> {
  return em.transactional(async (tx) => {
    const partners = await deactivateDemoPartners(tx);
    return { ...partners, promoCodes: await deactivateDemoPromoCodes(tx) };
  });
}

const isEmpty = (data: ActiveDemoData) => Object.values(data).every((names: string[]) => names.length === 0);

/** The active demo data in words, e.g. `credentials demo-everest-trails; promo codes HIMALAYA10, PEMBA5`. */
export function describeDemoData(data: ActiveDemoData): string {
  const kinds: Array<[string, string[]]> = [
    ['credentials', data.credentials],
    ['companies', data.companies],
    ['agents', data.agents],
    ['promo codes', data.promoCodes],
  ];
  return kinds
    .filter(([, names]) => names.length > 0)
    .map(([kind, names]) => `${kind} ${names.join(', ')}`)
    .join('; ');
}

/**
 * Production refuses to serve while anything of the demo set works: a credential anyone could take
 * a token with, or a promo code printed in docs/operations.md that a real partner's order would take.
 */
export async function refuseActiveDemoData(em: EntityManager): Promise<void> {
  const active = await activeDemoData(em);
  if (isEmpty(active)) return;
  throw new StartupRefusal(
    `Refusing to start in production: demo data with published credentials and promo codes is active in this database ` +
      `(${describeDemoData(active)}); deactivate it all with \`${DEMO_DEACTIVATE_COMMAND}\``,
  );
}
