import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { SalesAgent } from '../../src/modules/partners/entities/sales-agent';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * GET /me (issue 47): a company reads what it cannot learn anywhere else, its own id (a sales
 * company books an agency by it, in `travelCompanyIds`), its name, type, commission percent,
 * sales agents, and the date its sandbox test clock reads. client.op checks each body against
 * the spec's schema for its status.
 */
const { server, client } = useTestServer();
const ME = '/api/external/v1/me';
const CLOCK = '/api/external/v1/sandbox/clock';
const me = (caller: TestPartner | { token: string }) =>
  client.op('getMe', 'GET', ME, undefined, { token: caller.token });

describe('GET /me', () => {
  it('answers an agency its own company id, name, type and commission percent, no agents and no test clock', async () => {
    const agency = await newPartner(server, client, { name: 'Langtang Valley Treks', commissionPercent: '12.50' });
    const response = await me(agency);
    expectStatus(response, 200);
    expect(response.body.data).toEqual({
      companyId: agency.companyId,
      name: 'Langtang Valley Treks',
      type: 'TRAVEL_AGENCY',
      commissionPercent: 12.5,
      salesAgents: [],
      testToday: null,
    });
  });

  it("answers a sales company its agents, active ones first, and never another company's", async () => {
    const sales = await newPartner(server, client, { type: CompanyType.SalesCompany });
    const other = await newPartner(server, client, { type: CompanyType.SalesCompany });
    const em = server.orm.em.fork();
    const retired = em.create(SalesAgent, { company: sales.companyId, name: 'Ang Dorje', active: false });
    const active = em.create(SalesAgent, { company: sales.companyId, name: 'Pema Lama' });
    em.create(SalesAgent, { company: other.companyId, name: 'Someone Else' });
    await em.flush();
    const response = await me(sales);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ companyId: sales.companyId, type: 'SALES_COMPANY' });
    expect(response.body.data.salesAgents).toEqual([
      { salesAgentId: active.id, name: 'Pema Lama', active: true },
      { salesAgentId: retired.id, name: 'Ang Dorje', active: false },
    ]);
  });

  it('gives the id a sales company puts into travelCompanyIds: the agency it names is the one that read it', async () => {
    const agency = await newPartner(server, client);
    const id = (await me(agency)).body.data.companyId;
    expect(await server.orm.em.fork().findOneOrFail(Company, id)).toMatchObject({ id: agency.companyId });
  });

  it('shows the date the sandbox test clock reads while it is set, and null once it is removed', async () => {
    const agency = await newPartner(server, client);
    expectStatus(
      await client.op('setSandboxClock', 'PUT', CLOCK, { today: '2031-11-02' }, { token: agency.token }),
      200,
    );
    expect((await me(agency)).body.data.testToday).toBe('2031-11-02');
    await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
    expect((await me(agency)).body.data.testToday).toBeNull();
  });

  it('needs a bearer token (401)', async () => {
    expectStatus(await client.call('GET', ME), 401);
  });
});
