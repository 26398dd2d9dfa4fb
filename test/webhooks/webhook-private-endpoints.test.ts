import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * A sandbox offered to partners (PAYMENT_MODE=sandbox on its own database, without
 * WEBHOOK_ALLOW_PRIVATE_ENDPOINTS) takes public endpoints only: loopback, private and metadata
 * addresses would let any partner probe the service's own network through its delivery log.
 */
const { server, client } = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'false' } });
const api = webhookApi(client);

describe('POST /webhook-endpoints in a sandbox offered to partners', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:8080/hooks'],
    ['a private address', 'https://10.0.0.5/hooks'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['this machine by name', 'https://localhost/hooks'],
  ])('refuses an endpoint on %s with a 400 on the url', async (_case, url) => {
    const partner = await newPartner(server, client);
    const answer = await api.create(partner, { url, events: ['*'] });
    expectStatus(answer, 400);
    expect(answer.body.details.fieldErrors.url).toEqual(expect.any(String));
  });
});
