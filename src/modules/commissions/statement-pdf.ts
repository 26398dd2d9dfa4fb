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
const COLUMN_X = COLUMNS.map(
  (_, index) => MARGIN + COLUMNS.slice(0, index).reduce((sum, column) => sum + column.width, 0),
);

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
export function renderStatementPdf(
  heading: StatementHeading,
  batches: AsyncIterable<StatementLine[]>,
  fonts: StatementFonts,
): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
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
  const write: Write = (text, x, y, size, color, bold) => names(doc, register, fonts, text, x, y, size, color, bold);
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
        drawLine(doc, table, line, y + row * ROW_HEIGHT);
        row += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
      // The reader went away: leaving the loop ends the cursor and frees its connection.
      if (doc.destroyed) return;
    }
    if (heading.lineCount === 0)
      doc
        .font('latin-regular')
        .fontSize(9)
        .fillColor(MUTED)
        .text('No commission lines in this period.', MARGIN, y + 4, { lineBreak: false });
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}

type Write = (text: string, x: number, y: number, size: number, color: string, bold?: boolean) => void;

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
): void {
  const runs = textRuns(fonts, text.length > 0 ? text : ' ', bold ? 'bold' : 'regular');
  doc.fontSize(size).fillColor(color);
  runs.forEach((run, index) => {
    register(run.face);
    doc.font(run.face);
    const options = {
      continued: index < runs.length - 1,
      lineBreak: false,
      width: CONTENT_WIDTH,
      height: size * 1.4,
      ellipsis: true,
    };
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
  const totals: Array<[string, Minor]> = [
    ['Earned', heading.earned],
    ['Reversed', heading.reversed],
    ['Net', heading.net],
  ];
  totals.forEach(([label, amount], index) => {
    const x = MARGIN + index * 150;
    doc.font('latin-regular').fontSize(8.5).fillColor(MUTED).text(label, x, 144, { lineBreak: false });
    doc
      .font('latin-bold')
      .fontSize(13)
      .fillColor(INK)
      .text(`${heading.currency} ${grouped(amount)}`, x, 156, { lineBreak: false });
  });
  doc
    .font('latin-regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`${heading.lineCount.toLocaleString('en-US')} lines`, MARGIN + 450, 144, { lineBreak: false });
  return tableHeader(doc, 186);
}

function laterPage(
  doc: PDFKit.PDFDocument,
  write: Write,
  heading: StatementHeading,
  page: number,
  pages: number,
): number {
  doc.addPage();
  const title = `${heading.issuer} · Commission statement ${heading.period} · ${heading.companyName}`;
  // Shaped in Noto on every page, the heading was a tenth of a long statement: Latin-1 names need no shaping.
  if (/^[\u0020-\u007e\u00a0-\u00ff]*$/.test(title))
    doc.font(TABLE_FACE).fontSize(8.5).fillColor(MUTED).text(title, MARGIN, 24, { lineBreak: false });
  else write(title, MARGIN, 24, 8.5, MUTED);
  pageNumber(doc, page, pages, 24, MUTED);
  return tableHeader(doc, 44);
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
function drawLine(doc: PDFKit.PDFDocument, table: TableFace, line: StatementLine, y: number): void {
  drawCells(
    doc,
    table,
    [
      line.occurredAt.toISOString().slice(0, 16).replace('T', ' '),
      line.kind,
      line.role,
      line.orderRef,
      line.policyNumber ?? '',
      line.refundRef ?? '',
      grouped(line.base),
      line.percent,
      grouped(line.amount),
    ],
    y,
  );
}

function drawCells(doc: PDFKit.PDFDocument, table: TableFace, cells: readonly string[], y: number): void {
  const baseline = (PAGE.height - y - table.ascent).toFixed(2);
  let operators = `q 1 0 0 -1 0 ${PAGE.height} cm BT /${table.id} ${TABLE_SIZE} Tf`;
  cells.forEach((cell, index) => {
    if (cell === '') return;
    const column = COLUMNS[index]!;
    const x = column.align === 'right' ? COLUMN_X[index]! + column.width - 4 - table.width(cell) : COLUMN_X[index]!;
    operators += ` 1 0 0 1 ${x.toFixed(2)} ${baseline} Tm (${cell.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj`;
  });
  doc.addContent(`${operators} ET Q`);
}

/** What drawing cells into the content stream needs of the table's face, taken once per page. */
interface TableFace {
  /** The face's resource name on the page (`F2`). */
  id: string;
  /** From the top of a line to its baseline, in points. */
  ascent: number;
  width(text: string): number;
}

/** PDFKit's current font, as its own text() reads it (not in its typings). */
interface FontState {
  _font: { id: string; ascender: number; ref(): unknown };
  page: { fonts: Record<string, unknown> };
}

/**
 * Makes the table's face current and listed in the page's resources (text() would do both), and
 * measures its characters once: cells are drawn from digits, letters and a few signs.
 */
function tableFace(doc: PDFKit.PDFDocument, face = TABLE_FACE, color = INK): TableFace {
  doc.font(face).fontSize(TABLE_SIZE).fillColor(color);
  const state = doc as unknown as FontState;
  const font = state._font;
  state.page.fonts[font.id] ??= font.ref();
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
