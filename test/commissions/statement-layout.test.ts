import { loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';
import { renderStatementPdf, type StatementHeading } from '../../src/modules/commissions/statement-pdf';
import type { StatementLine } from '../../src/modules/commissions/statement-rows';
import { readPdf, type PlacedText, type ReadPdf } from '../support/certificate-pdf';

const fonts = loadCertificateFonts();
const COMPANY_ID = '3f6c2a9e-8b1d-4e7f-9a2c-5d8e1f4b7a60';
/** The largest amount a money column holds (numeric(12,2)). */
const LARGEST = 999_999_999_999;

async function pdfOf(heading: StatementHeading, lines: StatementLine[]): Promise<ReadPdf> {
  async function* batches() {
    yield lines;
  }
  const doc = renderStatementPdf(heading, batches(), fonts);
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return readPdf(Buffer.concat(chunks));
}

const heading = (lines: StatementLine[], overrides: Partial<StatementHeading> = {}): StatementHeading => ({
  period: '2030-09',
  status: 'CLOSED',
  earned: lines.filter((line) => line.kind === 'EARNED').reduce((sum, line) => sum + line.amount, 0),
  reversed: lines.filter((line) => line.kind === 'REVERSED').reduce((sum, line) => sum + line.amount, 0),
  net: lines.reduce((sum, line) => sum + line.amount, 0),
  lineCount: lines.length,
  issuer: 'Himalayan Trek Cover',
  issuerPan: '300012345',
  companyId: COMPANY_ID,
  companyName: 'Everest Trails Pvt. Ltd.',
  companyPan: '601234567',
  currency: 'NPR',
  ...overrides,
});

const line = (overrides: Partial<StatementLine> = {}): StatementLine => ({
  lineId: '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  kind: 'EARNED',
  role: 'SELLER',
  orderRef: 'ORD-2030-000142',
  policyNumber: 'POL-2030-000087',
  paymentRef: 'ORD-2030-000142-1915001297000',
  refundRef: null,
  agentId: null,
  agentName: null,
  agentCode: null,
  base: 450_000,
  percent: '10.00',
  capPercent: '35.00',
  capped: false,
  effectivePercent: '10.00',
  reversedShare: null,
  reversedBase: null,
  amount: 45_000,
  currency: 'NPR',
  occurredAt: new Date('2030-09-20T08:41:37Z'),
  period: '2030-09',
  ...overrides,
});

/** Every role, at the longest value each column takes: 7-digit sequences, the largest amounts, a long agent name. */
const LONGEST: StatementLine[] = [
  line({ role: 'LISTED_AGENCY', orderRef: 'ORD-2030-8888888', policyNumber: 'POL-2030-8888888', base: LARGEST }),
  line({
    kind: 'REVERSED',
    role: 'AGENT',
    agentId: '7b2a1d3f-4c5e-4f6a-9b0c-1d2e3f4a5b6c',
    agentName: 'Maximilian Alexander Friedrich von Hohenzollern-Sigmaringen',
    agentCode: 'SITA-RAI-2030',
    orderRef: 'ORD-2030-8888888',
    policyNumber: 'POL-2030-8888888',
    refundRef: 'RFD-2030-8888888',
    percent: '100.00',
    capPercent: '100.00',
    capped: true,
    effectivePercent: '33.3333',
    base: LARGEST,
    reversedShare: LARGEST,
    reversedBase: LARGEST,
    amount: -LARGEST,
  }),
  line({ role: 'CODE_OWNER', capped: true, percent: '20.00', effectivePercent: '17.50', amount: 78_750 }),
  line({ role: 'AGENT', agentName: 'श्रीमती '.repeat(30).trim(), agentCode: 'सीता-२०३०-विशेष-कोड' }),
];

/**
 * The table's rows of a page: its text pieces grouped by baseline, each row left to right, the
 * pieces that touch or stand a word space apart (the glyph runs of one shaped name) joined into one cell.
 */
function rows(items: PlacedText[]): PlacedText[][] {
  const byLine = new Map<number, PlacedText[]>();
  for (const item of items) {
    const y = Math.round(item.y);
    byLine.set(y, [...(byLine.get(y) ?? []), item]);
  }
  return [...byLine.values()].map((row) =>
    row
      .sort((a, b) => a.x - b.x)
      .reduce<PlacedText[]>((cells, item) => {
        const last = cells.at(-1);
        const gap = last ? item.x - (last.x + last.width) : -1;
        if (last && gap > -0.05 && gap < 2.5)
          cells[cells.length - 1] = { ...last, text: last.text + item.text, width: item.x + item.width - last.x };
        else cells.push(item);
        return cells;
      }, []),
  );
}

describe('the printed statement at the longest values', () => {
  it('says each role in words and keeps every cell clear of the next column', async () => {
    const read = await pdfOf(heading(LONGEST), LONGEST);
    const [page] = read.pages;
    const header = rows(page!.items).find((row) => row[0]?.text === 'Date (Nepal)');
    if (!header) throw new Error(`no table header: ${page!.text}`);
    const titles = header.map((item) => item.text);
    expect(titles).toEqual([
      'Date (Nepal)',
      'Kind',
      'Role',
      'Agent code',
      'Order',
      'Policy',
      'Refund',
      'Base',
      '%',
      'Cap %',
      'Eff. %',
      'Amount',
    ]);
    const table = rows(page!.items).filter((row) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(row[0]?.text ?? ''));
    expect(table).toHaveLength(4);
    const texts = table.map((row) => row.map((item) => item.text));
    expect(texts[0]).toEqual(
      expect.arrayContaining(['Listed agency', 'ORD-2030-8888888', 'POL-2030-8888888', '9,999,999,999.99']),
    );
    expect(texts[1]).toEqual(
      expect.arrayContaining([
        'Reversed',
        'SITA-RAI-2030',
        'RFD-2030-8888888',
        '100.00',
        '33.3333',
        '-9,999,999,999.99',
      ]),
    );
    expect(texts[1]!.find((text) => text.startsWith('Agent: Maximilian'))).toMatch(/\.\.\.$/);
    expect(texts[2]).toEqual(expect.arrayContaining(['Code owner', '17.50']));
    // A name in Devanagari is set in the certificate's faces, cut to its column as a Latin one is.
    expect(texts[3]!.join(' ')).toMatch(/ Agent: श्रीमती.*\.\.\. /);
    // More than a word space between the end of one cell and the start of the next.
    const overlaps = [header, ...table].flatMap((row) =>
      row
        .slice(1)
        .filter((cell, index) => row[index]!.x + row[index]!.width + 3 > cell.x)
        .map((cell) => `${cell.text} at ${cell.x.toFixed(1)}`),
    );
    expect(overlaps).toEqual([]);
    // And within the page.
    for (const item of page!.items) expect(item.x + item.width).toBeLessThanOrEqual(page!.width - 40 + 0.5);
  });

  it('explains the roles and the columns in a legend', async () => {
    const read = await pdfOf(heading(LONGEST), LONGEST);
    for (const words of [
      'Seller: you placed the order',
      'Listed agency: you are a registered agency listed on it',
      'Code owner: your company promo code was applied',
      'Agent: <name>: the code of one of your sales agents (Agent code) was applied',
      'Base × Eff. % = Amount',
    ])
      expect(read.text).toContain(words);
  });
});

describe('what the accountant books the statement by', () => {
  it("carries the statement's number, both parties' PAN/VAT numbers and says that no TDS is deducted by the service", async () => {
    const read = await pdfOf(heading(LONGEST), LONGEST);
    expect(read.text).toContain('No. CST-2030-09-3F6C2A9E');
    expect(read.text).toContain('Everest Trails Pvt. Ltd.: PAN/VAT 601234567');
    expect(read.text).toContain('Himalayan Trek Cover: PAN/VAT 300012345');
    expect(read.text).toContain('No tax (TDS) is deducted by this service');
    const without = await pdfOf(heading(LONGEST, { companyPan: null }), LONGEST);
    expect(without.text).toContain('Everest Trails Pvt. Ltd.: PAN/VAT not on file');
  });

  it('dates every line in Nepal time, as the period is counted', async () => {
    // 18:20 UTC on the last of September is five past midnight on 1 October in Nepal.
    const late = [line({ occurredAt: new Date('2030-09-30T18:20:00Z'), period: '2030-10' })];
    const read = await pdfOf(heading(late, { period: '2030-10' }), late);
    expect(read.text).toContain('2030-10-01 00:05');
    expect(read.text).not.toContain('2030-09-30');
  });

  it('ends on the closing totals on the last page, under a last page full of lines too', async () => {
    for (const count of [1, 28, 68]) {
      const lines = Array.from({ length: count }, () => line());
      const read = await pdfOf(heading(lines), lines);
      const last = read.pages.at(-1)!;
      expect(last.text.replace(/\s+/g, ' ')).toContain(
        `Closing totals 2030-09: Earned NPR ${(450 * count).toLocaleString('en-US')}.00 · Reversed NPR 0.00 · Net NPR ${(450 * count).toLocaleString('en-US')}.00 · ${count} lines`,
      );
      read.pages.forEach((page, index) => expect(page.text).toContain(`Page ${index + 1} of ${read.pages.length}`));
      expect(read.pages.slice(0, -1).some((page) => page.text.includes('Closing totals'))).toBe(false);
    }
  });
});
