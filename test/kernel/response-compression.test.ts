import http from 'node:http';
import { expectContract } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let partner: TestPartner;
const CTG_LIST = '/api/external/v1/reference/ctgs';

beforeAll(async () => {
  partner = await newPartner(server, client);
});

/** GET over node:http, which sends only the headers given (no Accept-Encoding of its own, unlike fetch). */
function plainGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers }, (response) => {
        let text = '';
        response.setEncoding('latin1');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      })
      .on('error', reject);
  });
}

describe('response compression', () => {
  it('gzips a large answer for a partner whose client accepts gzip', async () => {
    const response = await client.op('listCtgs', 'GET', CTG_LIST, undefined, {
      token: partner.token,
      headers: { 'accept-encoding': 'gzip' },
    });
    expectStatus(response, 200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    await expectContract('listCtgs', 200, response.body);
  });

  it('answers the same list uncompressed to a client that sends no Accept-Encoding', async () => {
    const response = await plainGet(CTG_LIST, { authorization: `Bearer ${partner.token}` });
    expectStatus(response, 200);
    expect(response.headers['content-encoding']).toBeUndefined();
    const body: unknown = JSON.parse(response.text);
    await expectContract('listCtgs', 200, body);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text, 'latin1'));
  });
});
