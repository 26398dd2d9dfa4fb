import PDFDocument from 'pdfkit';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { faceRegistrar, textRuns, type StatementFonts } from './statement-fonts';
import type { PeriodStatus } from './rules/commission-period';
import { FIRST_PAGE_LINES, LINES_PER_PAGE, statementPageCount } from './rules/statement-pages';
import type { StatementLine } from './statement-rows';
import type { PeriodTotals } from './statement-totals';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const ROW_HEIGHT = 12.4;
const INK = '#1b2733';
const MUTED = '#5b6773';
const ACCENT = '#0b5d4b';
const RULE = '#c9d3d9';

/** The table's columns: where each starts, how wide it is, how it aligns. */
const COLUMNS = [
  { title: 'Date (UTC)', width: 70, align: 'left' },
  { title: 'Kind', width: 48, align: 'left' },
  { title: 'Role', width: 62, align: 'left' },
  { title: 'Order', width: 70, align: 'left' },
  { title: 'Policy', width: 68, align: 'left' },
  { title: 'Refund', width: 68, align: 'left' },
  { title: 'Base', width: 52, align: 'right' },
  { title: '%', width: 26, align: 'right' },
  { title: 'Amount', width: 51.28, align: 'right' },
] as const;

export interface StatementHeading extends PeriodTotals {
  issuer: string;
  companyName: string;
  currency: string;
}

/**
 * The printable statement: the insurer's and the partner's names, the period, its totals and every
 * line, each page headed and numbered "Page n of N" (the count is known from the totals before the
 * first line is drawn). Lines are drawn as they arrive, a batch at a time, yielding between
 * batches so a 50,000-line month does not hold the process; names go through the certificate's
 * font runs, so a company named in Devanagari prints as written.
 */
export function renderStatementPdf(heading: StatementHeading, batches: AsyncIterable<StatementLine[]>, fonts: StatementFonts): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    font: '',
    autoFirstPage: false,
    lang: 'en',
    displayTitle: true,
    info: { Title: `Commission statement ${heading.period}, ${heading.companyName}`, Author: heading.issuer, Subject: `Commission statement ${heading.period}` },
  });
  const register = faceRegistrar(doc, fonts);
  register('latin-regular');
  register('latin-bold');
  const pages = statementPageCount(heading.lineCount);
  const write: Write = (text, x, y, size, color, bold) => names(doc, register, fonts, text, x, y, size, color, bold);
  void (async () => {
    let page = 1;
    let row = 0;
    let y = firstPage(doc, write, heading, pages);
    for await (const batch of batches) {
      for (const line of batch) {
        if (row === (page === 1 ? FIRST_PAGE_LINES : LINES_PER_PAGE)) {
          page += 1;
          row = 0;
          y = laterPage(doc, write, heading, page, pages);
        }
        drawLine(doc, line, y + row * ROW_HEIGHT);
        row += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (heading.lineCount === 0) doc.font('latin-regular').fontSize(9).fillColor(MUTED).text('No commission lines in this period.', MARGIN, y + 4, { lineBreak: false });
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}

type Write = (text: string, x: number, y: number, size: number, color: string, bold?: boolean) => void;

/** Text in the faces that have its glyphs (a partner's or insurer's name may be in any script). */
function names(doc: PDFKit.PDFDocument, register: (face: string) => void, fonts: StatementFonts, text: string, x: number, y: number, size: number, color: string, bold = false): void {
  const runs = textRuns(fonts, text.length > 0 ? text : ' ', bold ? 'bold' : 'regular');
  doc.fontSize(size).fillColor(color);
  runs.forEach((run, index) => {
    register(run.face);
    doc.font(run.face);
    const options = { continued: index < runs.length - 1, lineBreak: false, width: CONTENT_WIDTH, height: size * 1.4, ellipsis: true };
    if (index === 0) doc.text(run.text, x, y, options);
    else doc.text(run.text, options);
  });
}

function firstPage(doc: PDFKit.PDFDocument, write: Write, heading: StatementHeading, pages: number): number {
  doc.addPage();
  doc.rect(0, 0, PAGE.width, 84).fill(ACCENT);
  write(heading.issuer.toUpperCase(), MARGIN, 20, 9.5, '#cfe8e1', true);
  write('Commission statement', MARGIN, 34, 20, '#ffffff', true);
  pageNumber(doc, 1, pages, 20, '#cfe8e1');
  write(heading.companyName, MARGIN, 100, 13, INK, true);
  const status = statusText(heading.status);
  write(`Period ${heading.period} (Nepal month, ${status})`, MARGIN, 120, 10, MUTED);
  const totals: Array<[string, Minor]> = [['Earned', heading.earned], ['Reversed', heading.reversed], ['Net', heading.net]];
  totals.forEach(([label, amount], index) => {
    const x = MARGIN + index * 150;
    doc.font('latin-regular').fontSize(8.5).fillColor(MUTED).text(label, x, 144, { lineBreak: false });
    doc.font('latin-bold').fontSize(13).fillColor(INK).text(`${heading.currency} ${grouped(amount)}`, x, 156, { lineBreak: false });
  });
  doc.font('latin-regular').fontSize(8.5).fillColor(MUTED).text(`${heading.lineCount.toLocaleString('en-US')} lines`, MARGIN + 450, 144, { lineBreak: false });
  return tableHeader(doc, 186);
}

function laterPage(doc: PDFKit.PDFDocument, write: Write, heading: StatementHeading, page: number, pages: number): number {
  doc.addPage();
  write(`${heading.issuer} · Commission statement ${heading.period} · ${heading.companyName}`, MARGIN, 24, 8.5, MUTED);
  pageNumber(doc, page, pages, 24, MUTED);
  return tableHeader(doc, 44);
}

function pageNumber(doc: PDFKit.PDFDocument, page: number, pages: number, y: number, color: string): void {
  doc.font('latin-regular').fontSize(8.5).fillColor(color).text(`Page ${page} of ${pages}`, MARGIN, y, { width: CONTENT_WIDTH, align: 'right', lineBreak: false });
}

/** The column titles and a rule under them; returns where the first line goes. */
function tableHeader(doc: PDFKit.PDFDocument, y: number): number {
  doc.font('latin-bold').fontSize(7.5).fillColor(ACCENT);
  let x = MARGIN;
  for (const column of COLUMNS) {
    doc.text(column.title, x, y, { width: column.width - 4, align: column.align, lineBreak: false });
    x += column.width;
  }
  doc.moveTo(MARGIN, y + 11).lineTo(PAGE.width - MARGIN, y + 11).lineWidth(0.6).strokeColor(RULE).stroke();
  doc.font('latin-regular').fontSize(7.5).fillColor(INK);
  return y + 15;
}

function drawLine(doc: PDFKit.PDFDocument, line: StatementLine, y: number): void {
  const cells = [
    line.occurredAt.toISOString().slice(0, 16).replace('T', ' '),
    line.kind,
    line.role,
    line.orderRef,
    line.policyNumber ?? '',
    line.refundRef ?? '',
    grouped(line.base),
    line.percent,
    grouped(line.amount),
  ];
  let x = MARGIN;
  cells.forEach((cell, index) => {
    const column = COLUMNS[index]!;
    doc.text(cell, x, y, { width: column.width - 4, align: column.align, lineBreak: false });
    x += column.width;
  });
}

const statusText = (status: PeriodStatus) => (status === 'OPEN' ? 'open: lines may still be added' : 'closed');

/** -1,500,000.00: money as printed for people. */
function grouped(amount: Minor): string {
  const [whole = '', fraction] = decimalStringFromMinor(amount).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
