import PDFDocument from 'pdfkit';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { listCurrentFontOnPage } from '../../kernel/pdfkit-adapter';
import { faceRegistrar, textRuns, type StatementFonts } from './statement-fonts';
import type { PeriodStatus } from './rules/commission-period';
import { closingFits, FIRST_PAGE_LINES, LINES_PER_PAGE, statementPageCount } from './rules/statement-pages';
import { nepalDateTime, roleInWords, statementNumber } from './rules/statement-figures';
import type { StatementLine } from './statement-rows';
import type { PeriodTotals } from './statement-totals';

// Landscape: twelve columns, each wide enough for its longest value (decision record 0098).
const PAGE = { width: 841.89, height: 595.28 };
const MARGIN = 40;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const ROW_HEIGHT = 12.4;
/**
 * The table is ASCII (references, enums, amounts), so it is set in PDF's standard Helvetica: no
 * embedding and no shaping. In the embedded Noto face each distinct string is shaped by fontkit,
 * which made a 10,000-line statement take 12 s; names, which may be in any script, stay in Noto.
 */
const TABLE_FACE = 'Helvetica';
const TABLE_BOLD = 'Helvetica-Bold';
const TABLE_SIZE = 7.5;
const INK = '#1b2733';
const MUTED = '#5b6773';
const ACCENT = '#0b5d4b';
const RULE = '#c9d3d9';

/**
 * The table's columns: where each starts, how wide it is, how it aligns. Each is wide enough for
 * its longest value in 7.5 pt Helvetica (a date and time, "Reversed", a 16-character reference,
 * -9,999,999,999.99, 33.3333) with 4 pt to the next; the role, which names an agent, is cut with
 * an ellipsis at its width (the agent's code stands beside it).
 */
const COLUMNS = [
  { title: 'Date (Nepal)', width: 66, align: 'left' },
  { title: 'Kind', width: 40, align: 'left' },
  { title: 'Role', width: 120, align: 'left' },
  { title: 'Agent code', width: 77.89, align: 'left' },
  { title: 'Order', width: 76, align: 'left' },
  { title: 'Policy', width: 76, align: 'left' },
  { title: 'Refund', width: 76, align: 'left' },
  { title: 'Base', width: 66, align: 'right' },
  { title: '%', width: 30, align: 'right' },
  { title: 'Cap %', width: 30, align: 'right' },
  { title: 'Eff. %', width: 36, align: 'right' },
  { title: 'Amount', width: 68, align: 'right' },
] as const;
/** What a cell keeps clear of the next column: more than a word space, so a reader's text extraction keeps the cells apart. */
const GAP = 6;
/** The role (an agent's name) and the agent's code: text a partner or operator chose, in any script, cut to the column. */
const FREE_TEXT_COLUMNS = [2, 3];
const COLUMN_X = COLUMNS.map(
  (_, index) => MARGIN + COLUMNS.slice(0, index).reduce((sum, column) => sum + column.width, 0),
);

export interface StatementHeading extends PeriodTotals {
  issuer: string;
  /** The insurer's PAN/VAT number (its tax registration with the Inland Revenue Department). */
  issuerPan: string;
  companyId: string;
  companyName: string;
  /** The partner's PAN/VAT number; `null` when none is on file. */
  companyPan: string | null;
  currency: string;
}

/**
 * The printable statement: the insurer's and the partner's names, the period, its totals and every
 * line, each page headed and numbered "Page n of N" (the count is known from the totals before the
 * first line is drawn). Lines are drawn as they arrive, a batch at a time, yielding between
 * batches so a 50,000-line month does not hold the process; names go through the certificate's
 * font runs, so a company named in Devanagari prints as written.
 */
export function renderStatementPdf(
  heading: StatementHeading,
  batches: AsyncIterable<StatementLine[]>,
  fonts: StatementFonts,
): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    font: '',
    autoFirstPage: false,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `Commission statement ${heading.period}, ${heading.companyName}`,
      Author: heading.issuer,
      Subject: `Commission statement ${heading.period}`,
    },
  });
  const register = faceRegistrar(doc, fonts);
  register('latin-regular');
  register('latin-bold');
  const pages = statementPageCount(heading.lineCount);
  const write: Write = (text, x, y, size, color, bold, width) =>
    names(doc, register, fonts, text, x, y, size, color, bold, width);
  void (async () => {
    let page = 1;
    let row = 0;
    let y = firstPage(doc, write, heading, pages);
    let table = tableFace(doc);
    for await (const batch of batches) {
      for (const line of batch) {
        if (row === (page === 1 ? FIRST_PAGE_LINES : LINES_PER_PAGE)) {
          page += 1;
          row = 0;
          y = laterPage(doc, write, heading, page, pages);
          table = tableFace(doc);
        }
        drawLine(doc, table, write, line, y + row * ROW_HEIGHT);
        row += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
      // The reader went away: leaving the loop ends the cursor and frees its connection.
      if (doc.destroyed) return;
    }
    if (heading.lineCount === 0) {
      doc
        .font('latin-regular')
        .fontSize(9)
        .fillColor(MUTED)
        .text('No commission lines in this period.', MARGIN, y + 4, { lineBreak: false });
      row = 1;
    }
    // The accountant reads the totals where the lines end: on the last page, under the last line or on a page of their own.
    if (closingFits(Math.max(heading.lineCount, 1), page)) closing(doc, write, heading, y + row * ROW_HEIGHT + 8);
    else closing(doc, write, heading, laterPage(doc, write, heading, page + 1, pages, false));
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}

type Write = (text: string, x: number, y: number, size: number, color: string, bold?: boolean, width?: number) => void;

/** Text in the faces that have its glyphs (a partner's or insurer's name may be in any script). */
function names(
  doc: PDFKit.PDFDocument,
  register: (face: string) => void,
  fonts: StatementFonts,
  text: string,
  x: number,
  y: number,
  size: number,
  color: string,
  bold = false,
  width = CONTENT_WIDTH,
): void {
  const weight = bold ? 'bold' : 'regular';
  doc.fontSize(size).fillColor(color);
  const measure = (candidate: string) =>
    textRuns(fonts, candidate, weight).reduce((sum, run) => {
      register(run.face);
      return sum + doc.font(run.face).widthOfString(run.text);
    }, 0);
  const runs = textRuns(fonts, fittedName(text.length > 0 ? text : ' ', width, measure), weight);
  runs.forEach((run, index) => {
    register(run.face);
    doc.font(run.face);
    const options = { continued: index < runs.length - 1, lineBreak: false };
    if (index === 0) doc.text(run.text, x, y, options);
    else doc.text(run.text, options);
  });
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` cut to `width` at a whole character (a Devanagari syllable is not split) with "..." in
 * the Latin face: PDFKit's own ellipsis is drawn in the last run's face, and the Devanagari face
 * has no dot.
 */
function fittedName(text: string, width: number, measure: (text: string) => number): string {
  if (measure(text) <= width) return text;
  const characters = [...graphemes.segment(text)].map((part) => part.segment);
  while (characters.length > 0 && measure(`${characters.join('').trimEnd()}...`) > width) characters.pop();
  return `${characters.join('').trimEnd()}...`;
}

function firstPage(doc: PDFKit.PDFDocument, write: Write, heading: StatementHeading, pages: number): number {
  doc.addPage();
  doc.rect(0, 0, PAGE.width, 84).fill(ACCENT);
  write(heading.issuer.toUpperCase(), MARGIN, 20, 9.5, '#cfe8e1', true);
  write('Commission statement', MARGIN, 34, 20, '#ffffff', true);
  pageNumber(doc, 1, pages, 20, '#cfe8e1');
  const number = `No. ${statementNumber(heading.period, heading.companyId)}`;
  doc.font(TABLE_FACE).fontSize(10).fillColor('#ffffff');
  doc.text(number, PAGE.width - MARGIN - doc.widthOfString(number), 42, { lineBreak: false });
  write(heading.companyName, MARGIN, 98, 13, INK, true);
  const status = statusText(heading.status);
  write(`Period ${heading.period} (Nepal month, ${status})`, MARGIN, 116, 10, MUTED);
  write(taxNumbers(heading), MARGIN, 130, 8.5, MUTED);
  const totals: Array<[string, Minor]> = [
    ['Earned', heading.earned],
    ['Reversed', heading.reversed],
    ['Net', heading.net],
  ];
  totals.forEach(([label, amount], index) => {
    const x = MARGIN + index * 150;
    doc.font('latin-regular').fontSize(8.5).fillColor(MUTED).text(label, x, 150, { lineBreak: false });
    doc
      .font('latin-bold')
      .fontSize(13)
      .fillColor(INK)
      .text(`${heading.currency} ${grouped(amount)}`, x, 162, { lineBreak: false });
  });
  doc
    .font('latin-regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${heading.lineCount.toLocaleString('en-US')} lines`, MARGIN + 450, 150, { lineBreak: false });
  return tableHeader(doc, 192);
}

const taxNumbers = (heading: StatementHeading) =>
  `${heading.companyName}: PAN/VAT ${heading.companyPan ?? 'not on file'} · ${heading.issuer}: PAN/VAT ${heading.issuerPan}`;

const LEGEND = [
  'Roles: Seller: you placed the order (your percent less its direct discount). Listed agency: you are a registered agency listed on it. ' +
    'Code owner: your company promo code was applied. Agent: <name>: the code of one of your sales agents (Agent code) was applied.',
  "Columns: Date is Nepal time (UTC+5:45), in the period's Nepal month. Base is the premium part of the paid share; for a reversal, the part of it refunded. " +
    "% is the percent the line used; Cap % is shown when the order's earners together asked for more than the cap, so each was scaled down to Eff. %. " +
    'Base × Eff. % = Amount, rounded down to the paisa.',
  'Tax: the amounts are before tax. No tax (TDS) is deducted by this service; deduction and deposit of any TDS are for the payer under the Income Tax Act.',
];

/** The closing block of the last page: the totals the statement closes on, the legend and the tax sentence. */
function closing(doc: PDFKit.PDFDocument, write: Write, heading: StatementHeading, y: number): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(PAGE.width - MARGIN, y)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();
  const totals = `Closing totals ${heading.period}: Earned ${heading.currency} ${grouped(heading.earned)} · Reversed ${heading.currency} ${grouped(heading.reversed)} · Net ${heading.currency} ${grouped(heading.net)} · ${heading.lineCount.toLocaleString('en-US')} lines`;
  doc
    .font('latin-bold')
    .fontSize(9.5)
    .fillColor(INK)
    .text(totals, MARGIN, y + 6, { lineBreak: false });
  write(`${statementNumber(heading.period, heading.companyId)} · ${taxNumbers(heading)}`, MARGIN, y + 22, 8, MUTED);
  doc.font('latin-regular').fontSize(7.5).fillColor(MUTED);
  let top = y + 38;
  for (const paragraph of LEGEND) {
    doc.text(paragraph, MARGIN, top, { width: CONTENT_WIDTH, lineGap: 1 });
    top = doc.y + 3;
  }
}

function laterPage(
  doc: PDFKit.PDFDocument,
  write: Write,
  heading: StatementHeading,
  page: number,
  pages: number,
  table = true,
): number {
  doc.addPage();
  const title = `${heading.issuer} · Commission statement ${heading.period} · ${heading.companyName}`;
  // Shaped in Noto on every page, the heading was a tenth of a long statement: Latin-1 names need no shaping.
  if (/^[\u0020-\u007e\u00a0-\u00ff]*$/.test(title))
    doc.font(TABLE_FACE).fontSize(8.5).fillColor(MUTED).text(title, MARGIN, 24, { lineBreak: false });
  else write(title, MARGIN, 24, 8.5, MUTED);
  pageNumber(doc, page, pages, 24, MUTED);
  return table ? tableHeader(doc, 44) : 44;
}

function pageNumber(doc: PDFKit.PDFDocument, page: number, pages: number, y: number, color: string): void {
  const text = `Page ${page} of ${pages}`;
  doc.font(TABLE_FACE).fontSize(8.5).fillColor(color);
  doc.text(text, PAGE.width - MARGIN - doc.widthOfString(text), y, { lineBreak: false });
}

/** The column titles and a rule under them; returns where the first line goes. */
function tableHeader(doc: PDFKit.PDFDocument, y: number): number {
  drawCells(
    doc,
    tableFace(doc, TABLE_BOLD, ACCENT),
    COLUMNS.map((column) => column.title),
    y,
  );
  doc
    .moveTo(MARGIN, y + 11)
    .lineTo(PAGE.width - MARGIN, y + 11)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();
  return y + 15;
}

/**
 * A table line straight into the page's content stream: one text object with a positioned string
 * per cell. Through PDFKit's text() a line cost nine wrapped, kerned, saved and restored text
 * objects, 0.3 ms, and a 50,000-line month took over 15 s; this is the same drawing without them.
 * The cells are ASCII in standard Helvetica, whose WinAnsi literal strings need only \ ( ) escaped,
 * and right-aligned cells are placed by their width from the font's metrics (digits do not kern).
 */
function drawLine(doc: PDFKit.PDFDocument, table: TableFace, write: Write, line: StatementLine, y: number): void {
  const free = [roleInWords(line.role, line.agentName), line.agentCode ?? ''];
  // An agent's name or code may be in any script: only then is the cell set in the certificate's faces.
  const plain = free.map((text) => WIN_ANSI.test(text));
  drawCells(
    doc,
    table,
    [
      nepalDateTime(line.occurredAt),
      line.kind === 'EARNED' ? 'Earned' : 'Reversed',
      plain[0] ? free[0]! : '',
      plain[1] ? free[1]! : '',
      line.orderRef,
      line.policyNumber ?? '',
      line.refundRef ?? '',
      grouped(line.reversedBase ?? line.base),
      line.percent,
      line.capped ? line.capPercent : '',
      line.effectivePercent,
      grouped(line.amount),
    ],
    y,
  );
  if (plain.every(Boolean)) return;
  // Drawn a little higher: the certificate's face sits lower on its line than Helvetica, and the cells share one baseline.
  FREE_TEXT_COLUMNS.forEach((column, index) => {
    if (!plain[index])
      write(free[index]!, COLUMN_X[column]!, y - 1.33, TABLE_SIZE, INK, false, COLUMNS[column]!.width - GAP);
  });
  tableFace(doc);
}

/** What standard Helvetica sets from its WinAnsi encoding without help: printable ASCII and Latin-1. */
const WIN_ANSI = /^[\u0020-\u007e\u00a0-\u00ff]*$/;

function drawCells(doc: PDFKit.PDFDocument, table: TableFace, cells: readonly string[], y: number): void {
  const baseline = (PAGE.height - y - table.ascent).toFixed(2);
  let operators = `q 1 0 0 -1 0 ${PAGE.height} cm BT /${table.id} ${TABLE_SIZE} Tf`;
  cells.forEach((cell, index) => {
    if (cell === '') return;
    const column = COLUMNS[index]!;
    // Only free text is cut: a reference or an amount is printed whole, and its column is wide enough for it.
    const text = FREE_TEXT_COLUMNS.includes(index) ? fitted(table, cell, column.width - GAP) : cell;
    const x = column.align === 'right' ? COLUMN_X[index]! + column.width - GAP - table.width(text) : COLUMN_X[index]!;
    operators += ` 1 0 0 1 ${x.toFixed(2)} ${baseline} Tm (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj`;
  });
  doc.addContent(`${operators} ET Q`);
}

/** `text` cut with "..." to `width` (an agent's name or code longer than its column). */
function fitted(table: TableFace, text: string, width: number): string {
  if (table.width(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && table.width(`${cut}...`) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** What drawing cells into the content stream needs of the table's face, taken once per page. */
interface TableFace {
  /** The face's resource name on the page (`F2`). */
  id: string;
  /** From the top of a line to its baseline, in points. */
  ascent: number;
  width(text: string): number;
}

/**
 * Makes the table's face current and listed in the page's resources (text() would do both), and
 * measures its characters once: cells are drawn from digits, letters and a few signs.
 */
function tableFace(doc: PDFKit.PDFDocument, face = TABLE_FACE, color = INK): TableFace {
  doc.font(face).fontSize(TABLE_SIZE).fillColor(color);
  const font = listCurrentFontOnPage(doc);
  const widths = new Map<string, number>();
  return {
    id: font.id,
    ascent: (font.ascender / 1000) * TABLE_SIZE,
    width: (text) => {
      let total = 0;
      for (const character of text) {
        let width = widths.get(character);
        if (width === undefined) {
          width = doc.widthOfString(character);
          widths.set(character, width);
        }
        total += width;
      }
      return total;
    },
  };
}

const statusText = (status: PeriodStatus) => (status === 'OPEN' ? 'open: lines may still be added' : 'closed');

/** -1,500,000.00: money as printed for people. */
function grouped(amount: Minor): string {
  const [whole = '', fraction] = decimalStringFromMinor(amount).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
