import PDFDocument from 'pdfkit';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import type { CertificateContent } from './rules/certificate-content';
import { faceNamed, fontRuns, type CertificateFonts, type FontWeight } from './certificate-fonts';
import { drawQrCode } from './qr-code';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const LABEL_WIDTH = 150;
const VALUE_X = MARGIN + LABEL_WIDTH + 10;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH - 10;
const QR_SIZE = 100;
/** Between rows: tight enough that six coverage lines, the premium and the policyholder fit one page. */
const ROW_GAP = 2;
const INK = '#1b2733';
const MUTED = '#5b6773';
const ACCENT = '#0b5d4b';
const RULE = '#c9d3d9';

interface TextStyle {
  weight?: FontWeight;
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

/**
 * The certificate of insurance as a PDF stream (A4; one page, a second one only for a very long
 * list of coverage lines): who is insured, where and up to which altitude, when, by which package
 * and underwriter, each coverage line, the devices, the assistance line, and a QR code of the
 * verification page. The document is drawn in full before it is returned and its bytes flow as
 * the reader pulls them.
 */
export function renderCertificate(content: CertificateContent, fonts: CertificateFonts): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default Helvetica: every text names its face, and loading the standard font's metrics cost 4 % of a certificate.
    font: '',
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `Certificate of insurance ${content.policyNumber}`,
      Author: content.issuer,
      Subject: `Trekking insurance policy ${content.policyNumber}`,
      // The issue time, not the download time: the same policy gives the same document.
      CreationDate: content.issuedAt,
    },
  });
  // Faces are registered as text needs them: a CJK face is parsed only for a name that uses it.
  doc.registerFont('latin-regular', faceNamed(fonts, 'latin-regular').font);
  const write = writer(doc, fonts);

  header(doc, write, content);
  section(doc, write, 'Insured traveller');
  row(doc, write, 'Name', content.traveller.name);
  row(doc, write, 'Date of birth', content.traveller.dateOfBirth);
  row(doc, write, 'Nationality', content.traveller.nationality);
  row(doc, write, content.traveller.idType === 'PASSPORT' ? 'Passport number' : `ID number (${content.traveller.idType})`, content.traveller.maskedIdNumber);

  section(doc, write, 'Trip and cover');
  row(doc, write, 'Route', content.route.maxAltitude === undefined ? content.route.name : `${content.route.name} (highest point ${metres(content.route.maxAltitude)})`);
  row(doc, write, 'Maximum altitude covered', metres(content.coveredAltitude));
  row(doc, write, 'Coverage window', `${content.coverageStartDate} to ${content.coverageEndDate} (${content.durationDays} days, both dates included)`);
  row(doc, write, 'Package', `${content.packageName} (${content.packageCode})`);
  row(doc, write, 'Underwriter', content.underwriter);
  row(doc, write, 'Premium paid', `${content.premium.currency} ${grouped(content.premium.amount)}`);
  const { company, agencies } = content.policyholder;
  row(doc, write, 'Policyholder', agencies.length > 0 ? `${company}; agencies listed: ${agencies.join(', ')}` : company);
  const wordingTop = row(doc, write, 'Policy wording', content.policyWordingUrl);
  doc.link(VALUE_X, wordingTop, VALUE_WIDTH, doc.y - wordingTop - ROW_GAP, content.policyWordingUrl);

  section(doc, write, 'Coverage');
  for (const line of content.coverage) amountRow(doc, write, line.name, `${content.currency} ${grouped(line.amount)}`);
  section(doc, write, 'Included devices');
  if (content.devices.length === 0) row(doc, write, 'None', '');
  for (const device of content.devices) row(doc, write, device.name, `Quantity ${device.quantity}`);

  assistance(doc, write, content);
  footer(doc, write, content);
  doc.end();
  return doc;
}

type Write = (text: string, x: number | undefined, y: number | undefined, style?: TextStyle) => void;

/**
 * Draws `text` in runs of the faces that have its glyphs. Text that is not all in the Latin faces
 * may be read back in glyph order, not as written (a Devanagari reph is drawn after the consonant
 * it precedes, Arabic and Hebrew right to left): it is marked with its logical text as
 * /ActualText, so copying and screen readers get the name as written.
 */
function writer(doc: PDFKit.PDFDocument, fonts: CertificateFonts): Write {
  const registered = new Set(['latin-regular']);
  return (text, x, y, style = {}) => {
    const runs = fontRuns(fonts, text.length > 0 ? text : ' ', style.weight ?? 'regular');
    const marked = runs.some((run) => !/^latin-/.test(run.face));
    if (marked) doc.markContent('Span', { actual: text });
    doc.fontSize(style.size ?? 10).fillColor(style.color ?? INK);
    runs.forEach((run, index) => {
      const options = { width: style.width, align: style.align, continued: index < runs.length - 1, lineGap: 1 };
      if (!registered.has(run.face)) {
        doc.registerFont(run.face, faceNamed(fonts, run.face).font);
        registered.add(run.face);
      }
      doc.font(run.face);
      if (index === 0 && x !== undefined) doc.text(run.text, x, y, options);
      else doc.text(run.text, options);
    });
    if (marked) doc.endMarkedContent();
  };
}

function header(doc: PDFKit.PDFDocument, write: Write, content: CertificateContent): void {
  doc.rect(0, 0, PAGE.width, 92).fill(ACCENT);
  write(content.issuer.toUpperCase(), MARGIN, 24, { weight: 'bold', size: 10, color: '#cfe8e1', width: CONTENT_WIDTH });
  write('Certificate of Insurance', MARGIN, 40, { weight: 'bold', size: 24, color: '#ffffff', width: CONTENT_WIDTH });
  write('Trekking insurance in Nepal, including helicopter rescue and evacuation', MARGIN, 72, { size: 9.5, color: '#e6f2ee', width: CONTENT_WIDTH });

  const top = 112;
  const qrX = PAGE.width - MARGIN - QR_SIZE;
  drawQrCode(doc, content.verificationUrl, qrX, top, QR_SIZE);
  // On a screen the code is a link too.
  doc.link(qrX, top, QR_SIZE, QR_SIZE, content.verificationUrl);
  write('Scan to verify', qrX, top + QR_SIZE + 2, { size: 8, color: MUTED, width: QR_SIZE, align: 'center' });

  const textWidth = qrX - MARGIN - 20;
  write('Policy number', MARGIN, top + 4, { size: 9, color: MUTED, width: textWidth });
  write(content.policyNumber, MARGIN, top + 17, { weight: 'bold', size: 22, color: INK, width: textWidth });
  write(`Order ${content.orderRef}`, MARGIN, top + 48, { size: 9.5, color: MUTED, width: textWidth });
  write(`${content.version.kind} ${content.version.date}`, MARGIN, top + 62, { size: 9.5, color: MUTED, width: textWidth });
  write(`Verify at ${content.verificationUrl}`, MARGIN, top + 76, { size: 8.5, color: MUTED, width: textWidth });
  doc.y = top + QR_SIZE + 18;
}

/**
 * Starts a new page unless `height` more points fit above the bottom margin: a row is never cut
 * in two (pdfkit would carry its wrapped half to the next page and leave the other column behind).
 */
function ensureRoom(doc: PDFKit.PDFDocument, height: number): void {
  if (doc.y + height > PAGE.height - MARGIN) doc.addPage();
}

/** The height of `text` wrapped to `width` at `size`, measured in the Latin face (close enough for Devanagari). */
function heightOf(doc: PDFKit.PDFDocument, text: string, size: number, width: number): number {
  return doc.font('latin-regular').fontSize(size).heightOfString(text.length > 0 ? text : ' ', { width, lineGap: 1 });
}

function section(doc: PDFKit.PDFDocument, write: Write, title: string): void {
  // A heading keeps at least its first row with it.
  ensureRoom(doc, 60);
  const y = doc.y + 8;
  write(title.toUpperCase(), MARGIN, y, { weight: 'bold', size: 9.5, color: ACCENT, width: CONTENT_WIDTH });
  doc.moveTo(MARGIN, doc.y + 2).lineTo(PAGE.width - MARGIN, doc.y + 2).lineWidth(0.6).strokeColor(RULE).stroke();
  doc.y += 6;
}

/** Draws a label and its value side by side; returns the row's top. */
function row(doc: PDFKit.PDFDocument, write: Write, label: string, value: string): number {
  ensureRoom(doc, Math.max(heightOf(doc, label, 9.5, LABEL_WIDTH), heightOf(doc, value, 10.5, VALUE_WIDTH)) + ROW_GAP);
  const top = doc.y;
  write(label, MARGIN, top, { size: 9.5, color: MUTED, width: LABEL_WIDTH });
  const afterLabel = doc.y;
  write(value, VALUE_X, top, { size: 10.5, width: VALUE_WIDTH });
  doc.y = Math.max(afterLabel, doc.y) + ROW_GAP;
  return top;
}

function amountRow(doc: PDFKit.PDFDocument, write: Write, name: string, amount: string): void {
  const amountWidth = 130;
  ensureRoom(doc, heightOf(doc, name, 10.5, CONTENT_WIDTH - amountWidth - 10) + ROW_GAP);
  const top = doc.y;
  write(name, MARGIN, top, { size: 10.5, width: CONTENT_WIDTH - amountWidth - 10 });
  const afterName = doc.y;
  write(amount, PAGE.width - MARGIN - amountWidth, top, { weight: 'bold', size: 10.5, width: amountWidth, align: 'right' });
  doc.y = Math.max(afterName, doc.y) + ROW_GAP;
}

function assistance(doc: PDFKit.PDFDocument, write: Write, content: CertificateContent): void {
  ensureRoom(doc, 92);
  const top = doc.y + 12;
  doc.roundedRect(MARGIN, top, CONTENT_WIDTH, 70, 6).lineWidth(1.2).strokeColor(ACCENT).stroke();
  write('24-HOUR ASSISTANCE: RESCUE, EVACUATION AND MEDICAL', MARGIN + 14, top + 10, { weight: 'bold', size: 9.5, color: ACCENT, width: CONTENT_WIDTH - 28 });
  write(`${content.assistance.phone}   ·   ${content.assistance.email}`, MARGIN + 14, top + 26, { weight: 'bold', size: 13, width: CONTENT_WIDTH - 28 });
  write(`Open a case through your agency or call before any helicopter evacuation, quoting the policy number ${content.policyNumber}.`, MARGIN + 14, top + 47, {
    size: 9,
    color: MUTED,
    width: CONTENT_WIDTH - 28,
  });
  doc.y = top + 80;
}

function footer(doc: PDFKit.PDFDocument, write: Write, content: CertificateContent): void {
  const text =
    `This certificate confirms that the traveller named above is insured by ${content.underwriter} under policy ${content.policyNumber} ` +
    `for the coverage window and the altitude shown. The policy wording linked above governs the cover. ` +
    `Anyone may check that it is valid with the QR code or at ${content.verificationUrl}.`;
  const height = heightOf(doc, text, 8, CONTENT_WIDTH);
  ensureRoom(doc, height + 6);
  // At the foot of the last page.
  write(text, MARGIN, Math.max(doc.y + 6, PAGE.height - MARGIN - height), { size: 8, color: MUTED, width: CONTENT_WIDTH });
}

function metres(altitude: number): string {
  return `${altitude.toLocaleString('en-US')} m`;
}

/** 1,500,000.00: money as printed for people. */
function grouped(amount: Minor): string {
  const [whole = '', fraction] = decimalStringFromMinor(amount).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
