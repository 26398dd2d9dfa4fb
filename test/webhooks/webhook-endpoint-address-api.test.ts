import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { isPublicAddress } from '../../src/modules/webhooks/rules/endpoint-address';
import { WebhookEndpoint } from '../../src/modules/webhooks/entities/webhook-endpoint';
import { liveProvidersEnv } from '../support/live-providers-env';
import { first } from '../support/elements';
import { eventually } from '../support/eventually';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * The address rules (decision records 0042 and 0053, issue 30's IPv6 forms) through the API, on a
 * server outside sandbox: at registration, at change, and at connect time. No delivery here may
 * reach a socket of this machine.
 */
// Background jobs on: the refusal at connect time happens in a delivery worker's try.
const { server, client } = useTestServer({
  env: { ...liveProvidersEnv(), PAYMENT_MODE: 'live', SEED_DEMO_DATA: 'false', WEBHOOK_RETRY_LIMIT: '0' },
  backgroundJobs: true,
});
const api = webhookApi(client);
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const refused = [
  ['plain HTTP', 'http://hooks.partner-a.example.com/pbs'],
  ['loopback', 'https://127.0.0.1/pbs'],
  ['the name localhost', 'https://localhost/pbs'],
  ['the name localhost with a trailing dot', 'https://LOCALHOST./pbs'],
  ['a private address', 'https://10.1.2.3/pbs'],
  ['a private address (172.16/12)', 'https://172.16.5.4/pbs'],
  ['a private address (192.168/16)', 'https://192.168.1.1/pbs'],
  ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
  ["Azure's WireServer", 'https://168.63.129.16/machine?comp=goalstate'],
  ["NAT64 of Azure's WireServer", 'https://[64:ff9b::a83f:8110]/pbs'],
  ['carrier-grade NAT', 'https://100.64.0.1/pbs'],
  ['multicast', 'https://224.0.0.1/pbs'],
  ['unspecified', 'https://0.0.0.0/pbs'],
  ['IPv6 loopback', 'https://[::1]/pbs'],
  ['IPv6 unique local', 'https://[fd00::1]/pbs'],
  ['IPv6 link-local', 'https://[fe80::1]/pbs'],
  ['IPv6 multicast', 'https://[ff02::1]/pbs'],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/pbs'],
  ['IPv4-mapped private, in hex', 'https://[::ffff:a01:203]/pbs'],
  ['IPv4-compatible loopback', 'https://[::7f00:1]/pbs'],
  ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/pbs'],
  ['NAT64 of cloud metadata', 'https://[64:ff9b::a9fe:a9fe]/pbs'],
  ['local-use NAT64', 'https://[64:ff9b:1::808:808]/pbs'],
  ['6to4 of loopback', 'https://[2002:7f00:1::]/pbs'],
  ['6to4 of a private address', 'https://[2002:c0a8:101::1]/pbs'],
  ['deprecated site-local', 'https://[fec0::1]/pbs'],
  ['a name that does not resolve', 'https://hooks.partner-a.invalid/pbs'],
] as const;

describe('webhook endpoint addresses outside sandbox, through the API', () => {
  it.each(refused)('registering an endpoint on %s is a 400 naming the url, and stores nothing', async (_case, url) => {
    const answer = await api.create(partner, { url, events: ['*'] });
    expectStatus(answer, 400);
    expect(answer.body.details.fieldErrors.url).toEqual(expect.any(String));
    expect(await server.orm.em.fork().count(WebhookEndpoint, { companyId: partner.companyId })).toBe(0);
  });

  it('registering an https endpoint whose name resolves to this machine is a 400 (the name is looked up at registration)', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    // Every usual machine's own name resolves to a loopback or private address; on a machine whose name is public this case says nothing.
    if (addresses.every((entry) => isPublicAddress(entry.address))) return;
    const answer = await api.create(partner, { url: `https://${name}/pbs`, events: ['*'] });
    expectStatus(answer, 400);
    expect(answer.body.details.fieldErrors.url).toBe(`host ${name} does not resolve to a public address`);
    // Which address it resolved to stays unsaid.
    for (const entry of addresses) expect(JSON.stringify(answer.body)).not.toContain(entry.address);
  });

  it('registering a name that resolves to nothing gets the same answer as one that resolves to an internal address: the answer tells no internal host name exists', async () => {
    const name = hostname();
    if ((await lookup(name, { all: true })).every((entry) => isPublicAddress(entry.address))) return;
    const answers = [];
    for (const host of [name, 'hooks.partner-a.invalid']) {
      const answer = await api.create(partner, { url: `https://${host}/pbs`, events: ['*'] });
      expectStatus(answer, 400);
      answers.push({
        message: answer.body.message.replace(host, 'HOST'),
        url: answer.body.details.fieldErrors.url.replace(host, 'HOST'),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('changing an endpoint to a refused address is a 400 and keeps the old URL', async () => {
    const other = await newPartner(server, client);
    // Registered directly: nothing on the public internet answers in a test.
    const em = server.orm.em.fork();
    const endpoint = em.create(WebhookEndpoint, {
      companyId: other.companyId,
      url: 'https://hooks.partner-b.example.com/pbs',
      secret: 'whsec_AAAA',
    });
    await em.flush();
    for (const url of [
      'https://[::ffff:169.254.169.254]/x',
      'http://hooks.partner-b.example.com/pbs',
      'https://[2002:a9fe:a9fe::1]/x',
    ]) {
      expect({ url, status: (await api.update(other, endpoint.id, { url })).status }).toEqual({ url, status: 400 });
    }
    expect((await api.get(other, endpoint.id)).body.data.url).toBe('https://hooks.partner-b.example.com/pbs');
  });

  it('at connect time, a name that now resolves to this machine (DNS rebinding) is refused without a request: the log shows the refused try', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    if (addresses.every((entry) => isPublicAddress(entry.address))) return;
    const other = await newPartner(server, client);
    // As if the name had resolved to a public address when it was registered.
    const em = server.orm.em.fork();
    const endpoint = em.create(WebhookEndpoint, {
      companyId: other.companyId,
      url: `https://${name}/pbs`,
      secret: 'whsec_AAAA',
    });
    await em.flush();
    expectStatus(await api.test(other, endpoint.id), 202);
    const log = await eventually(
      async () => (await api.deliveries(other, { status: 'FAILED' })).body.data.content,
      (content: unknown[]) => content.length === 1,
      { timeoutMs: 20_000 },
    );
    const [tried] = first(log as Array<{ tries: Array<Record<string, unknown>> }>, 'the failed deliveries').tries;
    expect(tried).toEqual(
      expect.objectContaining({
        responseStatus: null,
        error: 'endpoint resolves to a loopback, private or link-local address',
      }),
    );
  });
});
