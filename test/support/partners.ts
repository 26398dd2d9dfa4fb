import { randomBytes } from 'node:crypto';
import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { Credential } from '../../src/modules/auth/entities/credential';
import { issueClientSecret } from '../../src/modules/auth/rules/credential-secret';
import type { RunningServer } from '../../src/server';
import type { ApiClient } from './http-client';

export interface TestPartner {
  companyId: string;
  companyName: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

export interface PartnerOverrides {
  type?: CompanyType;
  commissionPercent?: string;
  name?: string;
}

/** A fresh company with its own credential and token, so that a test touches only its own records. */
export async function newPartner(
  server: Pick<RunningServer, 'orm'>,
  client: ApiClient,
  overrides: PartnerOverrides = {},
): Promise<TestPartner> {
  const em = server.orm.em.fork();
  const suffix = randomBytes(4).toString('hex');
  const { secret: clientSecret, secretHash } = issueClientSecret();
  const company = em.create(Company, {
    name: overrides.name ?? `Test Treks ${suffix}`,
    type: overrides.type ?? CompanyType.TravelAgency,
    commissionPercent: overrides.commissionPercent ?? '10.00',
  });
  const credential = em.create(Credential, { clientId: `test-${suffix}`, secretHash, company });
  await em.flush();
  const response = await client.call('POST', '/api/external/v1/auth/token', {
    clientId: credential.clientId,
    clientSecret,
  });
  if (response.status !== 200) throw new Error(`could not take a token: ${JSON.stringify(response.body)}`);
  return {
    companyId: company.id,
    companyName: company.name,
    clientId: credential.clientId,
    clientSecret,
    token: response.body.data.accessToken,
  };
}
