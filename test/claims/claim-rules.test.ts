import {
  CLAIM_MOVES,
  CLAIM_STATUSES,
  CLAIM_STEPS,
  claimStep,
  formatClaimRef,
  type ClaimStatus,
  type ClaimStep,
} from '../../src/modules/claims/rules/claim-life';
import {
  claimFlags,
  coverageLineOf,
  documentsNeeded,
  duplicateInvoice,
  filingRefusal,
  repeatedInvoice,
  type FilingFacts,
  type FlagFacts,
} from '../../src/modules/claims/rules/filing';
import {
  assess,
  declineProblem,
  nprOf,
  rateText,
  rateUnits,
  sandboxRate,
  type ItemApproval,
} from '../../src/modules/claims/rules/assessment';
import { sandboxSteps } from '../../src/modules/claims/rules/sandbox-decision';

/** Every edge the machine allows, written out by hand from decision record 0095 (not read from the table under test). */
const ALLOWED: ReadonlyArray<[ClaimStatus, ClaimStep, ClaimStatus]> = [
  ['SUBMITTED', 'ASSESS', 'UNDER_ASSESSMENT'],
  ['UNDER_ASSESSMENT', 'REQUEST_INFORMATION', 'INFORMATION_REQUESTED'],
  ['INFORMATION_REQUESTED', 'ANSWER', 'UNDER_ASSESSMENT'],
  ['UNDER_ASSESSMENT', 'APPROVE', 'APPROVED'],
  ['UNDER_ASSESSMENT', 'APPROVE_PARTIALLY', 'PARTIALLY_APPROVED'],
  ['UNDER_ASSESSMENT', 'DECLINE', 'DECLINED'],
  ['APPROVED', 'PAY', 'PAID'],
  ['PARTIALLY_APPROVED', 'PAY', 'PAID'],
  ['PAID', 'CLOSE', 'CLOSED'],
  ['DECLINED', 'CLOSE', 'CLOSED'],
  ['SUBMITTED', 'WITHDRAW', 'WITHDRAWN'],
  ['UNDER_ASSESSMENT', 'WITHDRAW', 'WITHDRAWN'],
  ['INFORMATION_REQUESTED', 'WITHDRAW', 'WITHDRAWN'],
];

describe('the claim machine', () => {
  it.each(ALLOWED)('when a %s claim takes %s, then it is %s', (from, step, to) => {
    expect(claimStep('CLM-2030-000012', from, step)).toEqual({ to });
  });

  const refused = CLAIM_STATUSES.flatMap((from) =>
    CLAIM_STEPS.filter((step) => !ALLOWED.some(([f, s]) => f === from && s === step)).map(
      (step) => [from, step] as const,
    ),
  );

  it('refuses exactly the other 68 edges of 9 statuses by 9 steps', () => {
    expect(refused).toHaveLength(CLAIM_STATUSES.length * CLAIM_STEPS.length - ALLOWED.length);
    expect(refused).toHaveLength(68);
  });

  it.each(refused)(
    'when a %s claim is asked to %s, then it is refused with a reason naming the claim and its status',
    (from, step) => {
      const answer = claimStep('CLM-2030-000012', from, step);
      expect(answer).toEqual({ refused: expect.stringContaining(`Claim CLM-2030-000012 is ${from}; only`) });
    },
  );

  it('a withdrawn, closed or decided claim can no longer be withdrawn', () => {
    for (const from of ['APPROVED', 'PARTIALLY_APPROVED', 'DECLINED', 'PAID', 'CLOSED', 'WITHDRAWN'] as const)
      expect(CLAIM_MOVES.WITHDRAW.from).not.toContain(from);
  });

  it('the refusal reads as a sentence', () => {
    expect(claimStep('CLM-2030-000012', 'APPROVED', 'WITHDRAW')).toEqual({
      refused:
        'Claim CLM-2030-000012 is APPROVED; only a SUBMITTED, UNDER_ASSESSMENT or INFORMATION_REQUESTED claim can be withdrawn',
    });
    expect(claimStep('CLM-2030-000012', 'SUBMITTED', 'ANSWER')).toEqual({
      refused: 'Claim CLM-2030-000012 is SUBMITTED; only an INFORMATION_REQUESTED claim can take an answer',
    });
  });

  it('formats CLM-<year>-<seq> with six digits at least', () => {
    expect(formatClaimRef('2030', '12')).toBe('CLM-2030-000012');
    expect(formatClaimRef('2030', '1234567')).toBe('CLM-2030-1234567');
    expect(() => formatClaimRef('30', '1')).toThrow();
    expect(() => formatClaimRef('2030', '0')).toThrow();
  });
});

const LINES = [
  { code: 'EMERGENCY_EVACUATION' },
  { code: 'MEDICAL_EXPENSES' },
  { code: 'TRIP_CANCELLATION' },
  { code: 'BAGGAGE_LOSS' },
];

function facts(overrides: Partial<FilingFacts> = {}): FilingFacts {
  return {
    orderRef: 'ORD-2030-000142',
    orderStatus: 'PAID',
    paidAt: new Date('2030-10-01T04:00:00Z'),
    cancelledOn: null,
    coverageStartDate: '2030-10-05',
    coverageEndDate: '2030-10-18',
    claimType: 'MEDICAL_EXPENSES',
    coverageLines: LINES,
    incidentDate: '2030-10-09',
    today: '2030-10-20',
    noticeDays: 90,
    ...overrides,
  };
}

describe('what filing refuses', () => {
  it('when everything holds, then nothing refuses the claim', () => {
    expect(filingRefusal(facts())).toBeNull();
  });

  it('when the order was never paid, then ORDER_NOT_PAID naming its status', () => {
    expect(filingRefusal(facts({ paidAt: null, orderStatus: 'PENDING' }))).toEqual({
      code: 'ORDER_NOT_PAID',
      message: 'Order ORD-2030-000142 is PENDING; a claim can be filed only on a paid order',
    });
  });

  it('when the order was cancelled before the incident, then ORDER_ALREADY_CANCELLED; cancelled on the day or after, it stands', () => {
    expect(filingRefusal(facts({ orderStatus: 'CANCELLED', cancelledOn: '2030-10-08' }))?.code).toBe(
      'ORDER_ALREADY_CANCELLED',
    );
    expect(filingRefusal(facts({ orderStatus: 'CANCELLED', cancelledOn: '2030-10-09' }))).toBeNull();
    expect(filingRefusal(facts({ orderStatus: 'CANCELLED', cancelledOn: '2030-10-12' }))).toBeNull();
  });

  it('when the incident is a day outside the window on either side, or after today, then INCIDENT_OUTSIDE_COVER; the first and last days are in', () => {
    expect(filingRefusal(facts({ incidentDate: '2030-10-04' }))?.code).toBe('INCIDENT_OUTSIDE_COVER');
    expect(filingRefusal(facts({ incidentDate: '2030-10-19' }))?.code).toBe('INCIDENT_OUTSIDE_COVER');
    expect(filingRefusal(facts({ incidentDate: '2030-10-05' }))).toBeNull();
    expect(filingRefusal(facts({ incidentDate: '2030-10-18' }))).toBeNull();
    expect(filingRefusal(facts({ incidentDate: '2030-10-12', today: '2030-10-11' }))).toEqual({
      code: 'INCIDENT_OUTSIDE_COVER',
      message: 'The incident date 2030-10-12 is after today (2030-10-11)',
    });
  });

  it('when the package has no line for the type, then CLAIM_TYPE_NOT_COVERED', () => {
    expect(filingRefusal(facts({ claimType: 'PERSONAL_ACCIDENT' }))?.code).toBe('CLAIM_TYPE_NOT_COVERED');
  });

  it('when the 90 days after the cover ended (2030-10-18 + 90 = 2031-01-16) are over, then CLAIM_NOTICE_EXPIRED', () => {
    expect(filingRefusal(facts({ today: '2031-01-16' }))).toBeNull();
    expect(filingRefusal(facts({ today: '2031-01-17' }))).toEqual({
      code: 'CLAIM_NOTICE_EXPIRED',
      message: 'Claims on order ORD-2030-000142 could be filed until 2031-01-16 (90 days after the cover ended)',
    });
    expect(filingRefusal(facts({ today: '2030-10-29', noticeDays: 10 }))?.code).toBe('CLAIM_NOTICE_EXPIRED');
  });

  it('maps each claim type to its coverage line, interruption to cancellation and baggage to baggage loss', () => {
    expect(coverageLineOf('TRIP_INTERRUPTION', LINES)?.code).toBe('TRIP_CANCELLATION');
    expect(coverageLineOf('BAGGAGE_AND_EQUIPMENT', LINES)?.code).toBe('BAGGAGE_LOSS');
    expect(coverageLineOf('TRIP_INTERRUPTION', [...LINES, { code: 'TRIP_INTERRUPTION' }])?.code).toBe(
      'TRIP_INTERRUPTION',
    );
    expect(coverageLineOf('PERSONAL_ACCIDENT', LINES)).toBeNull();
  });

  it('an invoice already claimed on the policy names the claim, whatever its case or blanks; a repeat inside one filing is found', () => {
    const claimed = [{ invoiceNumber: 'PAP-2026-0193', claimRef: 'CLM-2030-000012' }];
    expect(duplicateInvoice([' pap-2026-0193 '], claimed)).toEqual({
      invoiceNumber: ' pap-2026-0193 ',
      claimRef: 'CLM-2030-000012',
    });
    expect(duplicateInvoice(['PAP-2026-0194'], claimed)).toBeNull();
    expect(repeatedInvoice(['A-1', 'B-2', 'a-1'])).toBe(2);
    expect(repeatedInvoice(['A-1', 'B-2'])).toBeNull();
  });
});

function flagFacts(overrides: Partial<FlagFacts> = {}): FlagFacts {
  return {
    claimType: 'MEDICAL_EXPENSES',
    incidentDate: '2030-10-09',
    today: '2030-10-20',
    maxAltitude: 3000,
    altitudeMeters: null,
    assistanceCase: null,
    currencies: ['NPR'],
    ...overrides,
  };
}

describe('the flags the desk weighs', () => {
  it('when nothing is unusual, then no flag', () => {
    expect(claimFlags(flagFacts())).toEqual([]);
  });

  it('ALTITUDE_ABOVE_COVER from the body or from the assistance case, not at the maximum itself', () => {
    expect(claimFlags(flagFacts({ altitudeMeters: 3001 }))).toEqual(['ALTITUDE_ABOVE_COVER']);
    expect(claimFlags(flagFacts({ altitudeMeters: 3000 }))).toEqual([]);
    expect(claimFlags(flagFacts({ assistanceCase: { altitudeMeters: 5164, authorised: true } }))).toEqual([
      'ALTITUDE_ABOVE_COVER',
    ]);
  });

  it('NO_ASSISTANCE_CASE for an evacuation without a case, or with one the desk never authorised', () => {
    expect(claimFlags(flagFacts({ claimType: 'EMERGENCY_EVACUATION' }))).toEqual(['NO_ASSISTANCE_CASE']);
    expect(
      claimFlags(
        flagFacts({ claimType: 'EMERGENCY_EVACUATION', assistanceCase: { altitudeMeters: 2900, authorised: false } }),
      ),
    ).toEqual(['NO_ASSISTANCE_CASE']);
    expect(
      claimFlags(
        flagFacts({ claimType: 'EMERGENCY_EVACUATION', assistanceCase: { altitudeMeters: 2900, authorised: true } }),
      ),
    ).toEqual([]);
  });

  it('FILED_LATE_IN_NOTICE after 30 days from the incident (2030-10-09 + 30 = 2030-11-08)', () => {
    expect(claimFlags(flagFacts({ today: '2030-11-08' }))).toEqual([]);
    expect(claimFlags(flagFacts({ today: '2030-11-09' }))).toEqual(['FILED_LATE_IN_NOTICE']);
  });

  it('CURRENCY_CONVERSION when any item is not in NPR', () => {
    expect(claimFlags(flagFacts({ currencies: ['NPR', 'USD'] }))).toEqual(['CURRENCY_CONVERSION']);
  });

  it('the checklist lists the needed types not attached; a receipt stands for an invoice', () => {
    expect(documentsNeeded('MEDICAL_EXPENSES', [])).toEqual(['INVOICE', 'MEDICAL_REPORT']);
    expect(documentsNeeded('MEDICAL_EXPENSES', ['RECEIPT'])).toEqual(['MEDICAL_REPORT']);
    expect(documentsNeeded('BAGGAGE_AND_EQUIPMENT', ['INVOICE', 'POLICE_REPORT'])).toEqual([]);
    expect(documentsNeeded('PERSONAL_ACCIDENT', ['INVOICE'])).toEqual(['MEDICAL_REPORT']);
  });
});

function item(overrides: Partial<ItemApproval> = {}): ItemApproval {
  return {
    position: 1,
    amount: 42_000,
    currency: 'USD',
    approvedAmount: 42_000,
    exchangeRate: '133.50',
    rateDate: '2030-10-23',
    ...overrides,
  };
}

describe('the assessment in NPR paisa', () => {
  it('converts hundredths of a currency at a rate with four decimals, half up', () => {
    // USD 420.00 at 133.50: 56,070.00 NPR.
    expect(nprOf(42_000, 'USD', '133.50')).toBe(5_607_000);
    // USD 0.01 at 133.4567: 1.334567 NPR -> 133 paisa (0.4567 rounds down).
    expect(nprOf(1, 'USD', '133.4567')).toBe(133);
    // INR 0.01 at 1.6050: 1.605 paisa -> 2 paisa (half up).
    expect(nprOf(1, 'INR', '1.6050')).toBe(2);
    expect(nprOf(12_345, 'NPR', null)).toBe(12_345);
    expect(() => nprOf(100, 'USD', null)).toThrow();
  });

  it('reads a rate with at most four decimals, never zero', () => {
    expect(rateUnits('133.5')).toBe(1_335_000n);
    expect(rateText('133.5')).toBe('133.5000');
    expect(rateUnits('0')).toBeNull();
    expect(rateUnits('1.23456')).toBeNull();
    expect(rateUnits('-1')).toBeNull();
  });

  it('USD 420 in full at 133.50, excess 5,000: 51,070.00 NPR, APPROVE', () => {
    expect(assess({ items: [item()], excess: 500_000, lineLimit: 150_000_000, earlierApproved: 0 })).toEqual({
      itemsNpr: [5_607_000],
      gross: 5_607_000,
      excessApplied: 500_000,
      approvedTotal: 5_107_000,
      step: 'APPROVE',
    });
  });

  it('an item approved at less than claimed makes it APPROVE_PARTIALLY', () => {
    // USD 380 at 133.50 = 50,730.00; plus NPR 2,000.00 = 52,730.00; less 5,000 = 47,730.00.
    const answer = assess({
      items: [
        item({ approvedAmount: 38_000 }),
        item({
          position: 2,
          currency: 'NPR',
          amount: 200_000,
          approvedAmount: 200_000,
          exchangeRate: null,
          rateDate: null,
        }),
      ],
      excess: 500_000,
      lineLimit: 150_000_000,
      earlierApproved: 0,
    });
    expect(answer).toMatchObject({ gross: 5_273_000, approvedTotal: 4_773_000, step: 'APPROVE_PARTIALLY' });
  });

  it('the total stays within the line less what earlier claims on it were approved: 100,000 - 80,000 = 20,000', () => {
    const answer = assess({
      items: [
        item({ currency: 'NPR', amount: 5_000_000, approvedAmount: 5_000_000, exchangeRate: null, rateDate: null }),
      ],
      excess: 0,
      lineLimit: 10_000_000,
      earlierApproved: 8_000_000,
    });
    expect(answer).toMatchObject({ gross: 5_000_000, approvedTotal: 2_000_000, step: 'APPROVE_PARTIALLY' });
  });

  it('the excess is deducted once per claim, not once per item', () => {
    const answer = assess({
      items: [
        item({ currency: 'NPR', amount: 300_000, approvedAmount: 300_000, exchangeRate: null, rateDate: null }),
        item({
          position: 2,
          currency: 'NPR',
          amount: 300_000,
          approvedAmount: 300_000,
          exchangeRate: null,
          rateDate: null,
        }),
      ],
      excess: 500_000,
      lineLimit: 10_000_000,
      earlierApproved: 0,
    });
    expect(answer).toMatchObject({ gross: 600_000, excessApplied: 500_000, approvedTotal: 100_000, step: 'APPROVE' });
  });

  it('refuses what cannot stand: more than claimed, a foreign item without rate or date, a rate on NPR, nothing payable, a used-up line', () => {
    const base = { excess: 0, lineLimit: 10_000_000, earlierApproved: 0 };
    expect(assess({ ...base, items: [item({ approvedAmount: 42_001 })] })).toEqual({
      refused: 'item 1: the approved amount is more than the USD claimed',
    });
    expect(assess({ ...base, items: [item({ exchangeRate: null })] })).toMatchObject({
      refused: expect.stringContaining('exchange rate'),
    });
    expect(assess({ ...base, items: [item({ rateDate: null })] })).toMatchObject({
      refused: expect.stringContaining('date'),
    });
    expect(assess({ ...base, items: [item({ currency: 'NPR', exchangeRate: '1' })] })).toMatchObject({
      refused: expect.stringContaining('NPR'),
    });
    expect(assess({ ...base, excess: 10_000_000, items: [item()] })).toEqual({
      refused: 'nothing is payable after the excess: decline the claim instead',
    });
    expect(assess({ ...base, earlierApproved: 10_000_000, items: [item()] })).toEqual({
      refused: 'the coverage line is used up by earlier claims on this policy: decline the claim instead',
    });
  });

  it('a decline for OTHER needs a note; the other reasons do not', () => {
    expect(declineProblem('OTHER', null)).not.toBeNull();
    expect(declineProblem('OTHER', '  ')).not.toBeNull();
    expect(declineProblem('OTHER', 'Treatment was cosmetic')).toBeNull();
    expect(declineProblem('PRE_EXISTING_CONDITION', null)).toBeNull();
  });

  it('the sandbox desk converts at its fixed rates, 100 for any other currency, none for NPR', () => {
    expect(sandboxRate('USD')).toBe('133.5000');
    expect(sandboxRate('CHF')).toBe('100.0000');
    expect(sandboxRate('NPR')).toBeNull();
  });
});

describe('the sandbox desk steps', () => {
  it('takes a SUBMITTED claim under assessment first, and approves an undecided claim before paying it', () => {
    expect(sandboxSteps('SUBMITTED', 'APPROVED')).toEqual(['ASSESS', 'APPROVE']);
    expect(sandboxSteps('UNDER_ASSESSMENT', 'DECLINED')).toEqual(['DECLINE']);
    expect(sandboxSteps('SUBMITTED', 'PAID')).toEqual(['ASSESS', 'APPROVE', 'PAY']);
    expect(sandboxSteps('PARTIALLY_APPROVED', 'PAID')).toEqual(['PAY']);
    expect(sandboxSteps('SUBMITTED', 'INFORMATION_REQUESTED')).toEqual(['ASSESS', 'REQUEST_INFORMATION']);
    expect(sandboxSteps('WITHDRAWN', 'UNDER_ASSESSMENT')).toEqual(['ASSESS']);
  });
});
