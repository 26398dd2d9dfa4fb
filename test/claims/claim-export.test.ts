import { CompanyType } from '../../src/modules/partners/entities/company';
import { paidOrder } from '../support/assistance-fixtures';
import { claimRequest, CLAIMS, coverAround, decideClaim, fileClaim } from '../support/claim-fixtures';
import { csvRecords } from '../support/csv';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';

/**
 * GET /claims with `Accept: text/csv`: every claim the caller may read, with the filters and the
 * order of the JSON page, through the kernel's export path (decision record 0094; its pool and
 * limits are held in test/kernel/csv-exports.test.ts). client.op checks the answer against the
 * spec's schema for its status and content type.
 */
const { server, client } = useTestServer();
let placing: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;
let paidRef: string;
let submittedRef: string;

const exportOf = (caller: TestPartner, search = '') =>
  client.op('listClaims', 'GET', `${CLAIMS}${search ? `?${search}` : ''}`, undefined, {
    token: caller.token,
    headers: { accept: 'text/csv' },
  });

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Claim Export Sales', type: CompanyType.SalesCompany });
  listed = await newPartner(server, client, { name: 'Claim Export Agency', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Claim Export Stranger', type: CompanyType.TravelAgency });
  const order = await paidOrder(server, client, placing, { travelCompanyIds: [listed.companyId] });
  await coverAround(server, order.orderId);
  const paid = await fileClaim(client, placing, order.orderRef);
  expectStatus(paid, 201);
  paidRef = paid.body.data.claimRef;
  expectStatus(await decideClaim(client, placing, paidRef, { decision: 'PAID' }), 200);
  const submitted = await fileClaim(
    client,
    listed,
    order.orderRef,
    claimRequest({ claimType: 'TRIP_CANCELLATION', altitudeMeters: 5600 }),
  );
  expectStatus(submitted, 201);
  submittedRef = submitted.body.data.claimRef;
});

describe('GET /claims with Accept: text/csv', () => {
  it('exports every claim the company may read, newest first, in the documented columns, named by Content-Disposition', async () => {
    const response = await exportOf(listed);
    expectStatus(response, 200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="claims-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, records } = csvRecords(response.body);
    expect(header).toEqual([
      'claimRef',
      'orderRef',
      'policyNumber',
      'claimType',
      'status',
      'incidentDate',
      'assistanceCaseRef',
      'payeeType',
      'flags',
      'items',
      'approvedTotal',
      'paidAmount',
      'paidOn',
      'currency',
      'filedAt',
      'decidedAt',
    ]);
    expect(records.map((record) => record.claimRef)).toEqual([submittedRef, paidRef]);
    // USD 420.00 at the sandbox's 133.50, less the 5,000.00 excess: 51,070.00 NPR, paid in full.
    expect(records[1]).toMatchObject({
      status: 'PAID',
      claimType: 'MEDICAL_EXPENSES',
      payeeType: 'TRAVELLER',
      flags: 'CURRENCY_CONVERSION',
      items: '1',
      approvedTotal: '51070.00',
      paidAmount: '51070.00',
      currency: 'NPR',
      assistanceCaseRef: '',
    });
    expect(records[1]?.decidedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(records[0]).toMatchObject({
      status: 'SUBMITTED',
      flags: 'ALTITUDE_ABOVE_COVER CURRENCY_CONVERSION',
      approvedTotal: '',
      paidAmount: '',
      paidOn: '',
      decidedAt: '',
    });
  });

  it('follows the filters and the order asked, and shows a stranger nothing', async () => {
    const only = csvRecords((await exportOf(placing, 'status=PAID')).body).records;
    expect(only.map((record) => record.claimRef)).toEqual([paidRef]);
    const oldestFirst = csvRecords((await exportOf(placing, 'sortDir=asc')).body).records;
    expect(oldestFirst.map((record) => record.claimRef)).toEqual([paidRef, submittedRef]);
    const byType = csvRecords((await exportOf(placing, 'claimType=TRIP_CANCELLATION')).body).records;
    expect(byType.map((record) => record.claimRef)).toEqual([submittedRef]);
    const strangers = await exportOf(stranger);
    expectStatus(strangers, 200);
    expect(csvRecords(strangers.body).records).toEqual([]);
  });
});
