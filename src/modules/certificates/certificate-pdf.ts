import PDFDocument from 'pdfkit';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import type { CertificateContent } from './rules/certificate-content';
import { faceNamed, type CertificateFonts, type CjkFamily } from './certificate-fonts';
import { INK, LATIN_FACES, logicalLines, selectFace, writer, type TextStyle, type Write } from './certificate-text';
import { drawQrCode } from './qr-code';
import { versionLine } from './rules/certificate-version';
import { isLatin } from './rules/transliteration';
import { statedRouteEndorsement, statedRouteCover } from './rules/route-endorsement';
import { coverageSubtitle, keyLimits, keyTermsSummary, type CertificateCoverageLine } from './rules/coverage-summary';
import { fill, GLOSSARY, type Term } from './glossary';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const LABEL_WIDTH = 150;
const VALUE_X = MARGIN + LABEL_WIDTH + 10;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH - 10;
const QR_SIZE = 100;
/** Between rows: tight enough that six coverage lines, the premium and the policyholder fit one page. */
const ROW_GAP = 2;
const ASSISTANCE_HEIGHT = 70;
/** The assistance box in two languages: the Nepali heading and sentence below the English ones. */
const BILINGUAL_ASSISTANCE_HEIGHT = 118;
/** A row's Nepali label, under its English one (decision record 0104). */
const NEPALI_LABEL_SIZE = 8.5;
const NEPALI_FACE = 'devanagari-regular';
/** One key limit on page 1's foot: one line of 9.5-point text (coverage names come from the operator's catalogue, and are short). */
const LIMIT_ROW_HEIGHT = 14;
const ATTESTATION_SIZE = 8;
const MUTED = '#5b6773';
const ACCENT = '#0b5d4b';
const RULE = '#c9d3d9';
const SPECIMEN_RED = '#c0392b';
export const SPECIMEN_MARK = 'SPECIMEN — NOT INSURANCE';
export const TRANSLITERATED = '(transliterated, not as in passport)';
const NO_LATIN_NAME =
  'not given: the agency gave no name as in the passport; compare the date of birth and the end of the passport number';
/** Opens the diagonal mark's marked content: a pagination artifact of subtype Watermark (PDF 1.7, 14.8.2.2). */
export const SPECIMEN_ARTIFACT = '/Artifact <</Type /Pagination /Subtype /Watermark>> BDC';
/**
 * Poppler (pdftotext) does not skip artifacts: it read the rotated mark as letters scattered among
 * the rows it crosses. An empty /ActualText inside the artifact replaces its glyphs with nothing there too.
 */
const NOTHING_TO_READ = '/Span <</ActualText ()>> BDC';

/**
 * The title band's colours. A specimen's band is pale with solid black words: a black-and-white
 * copy (a threshold) keeps black on white and drops a pale tint, so SPECIMEN — NOT INSURANCE is
 * what every copy of its title and headers still says (decision record 0097).
 */
function bandOf(content: Pick<CertificateContent, 'specimen'>) {
  return content.specimen
    ? { fill: '#fff1c2', issuer: INK_BLACK, title: INK_BLACK, subtitle: INK_BLACK }
    : { fill: ACCENT, issuer: '#cfe8e1', title: '#ffffff', subtitle: '#e6f2ee' };
}
const INK_BLACK = '#000000';

/** The identity document's kind in words: a checkpoint officer reads "Citizenship certificate number", not an enum. */
const ID_LABELS: Record<string, Term> = {
  PASSPORT: GLOSSARY.passportNumber,
  NATIONAL_ID: GLOSSARY.nationalIdNumber,
  CITIZENSHIP_CERTIFICATE: GLOSSARY.citizenshipNumber,
};

/**
 * The certificate's languages: English and Nepali (the labels, the headings, the assistance box and
 * the attestation in both; the traveller's name and the policy's facts once), or English only, the
 * certificate as it was before decision record 0104 (kept to measure what the second language costs).
 */
export type CertificateLanguages = 'en+ne' | 'en';

/** A row's label: a glossary term, printed in both languages, or text of the policy's own (a device's name), printed as is. */
type Label = Term | string;

/**
 * Han characters are shared by Chinese, Japanese and Korean, drawn in each one's own forms. A name
 * with kana or hangul says which; a name in kanji alone does not, and the traveller's nationality
 * does: a Japanese name in Chinese forms reads as foreign to its bearer and to a Japanese officer.
 */
function cjkFormsFor(nationality: string): CjkFamily | undefined {
  if (/\bjapan/i.test(nationality) || nationality.includes('日本')) return 'jp';
  if (/\bkorea/i.test(nationality) || nationality.includes('한국')) return 'kr';
  return undefined;
}

/** What the drawing functions share: the document, its text writer, and the page-break rule. */
interface Sheet {
  doc: PDFKit.PDFDocument;
  fonts: CertificateFonts;
  write: Write;
  /** Starts a new page unless `height` more points fit above the page's bottom (on page 1, above the key limits and the assistance box). */
  room: (height: number) => void;
  /** The section being drawn: a page break inside it repeats its title, "(continued)". */
  section?: Term;
  /** Whether labels, headings, the assistance box and the attestation carry their Nepali words too. */
  nepali: boolean;
  /** Whether the rows' labels carry theirs (off only when they would push the trip off page 1). */
  rowLabelsInNepali: boolean;
}

/**
 * The certificate of insurance as a PDF stream (A4): who is insured, where and up to which
 * altitude, when, by which package and underwriter, each coverage line, the devices, the
 * assistance line, and a QR code of the verification page. The document is drawn in full before
 * it is returned and its bytes flow as the reader pulls them.
 *
 * A checkpoint reads page 1 only: the assistance box and the attestation are drawn at its foot,
 * their room kept free before anything else is laid out, so no name, route or agency however long
 * pushes them to a page 2. Rows that do not fit above them go on to the next pages, each headed with
 * the policy number and "page N of M" so that a loose sheet still says whose it is.
 */
export function renderCertificate(
  content: CertificateContent,
  fonts: CertificateFonts,
  languages: CertificateLanguages = 'en+ne',
): PDFKit.PDFDocument {
  const nepali = languages === 'en+ne';
  // Content long enough to push the evacuation or medical limit off page 1 is laid out again with
  // both limits kept at page 1's foot, above the assistance box (decision record 0097). The first
  // layout is dropped unread: it costs a second layout only for such content. With its Nepali
  // labels every certificate is such content (its rows take page 1 before the coverage list), so
  // a bilingual one starts with the limits at the foot, and is laid out again without them only
  // if its whole coverage list still fits page 1 (decision record 0104).
  const footFirst = nepali && keyLimits(content.coverage).length > 0;
  let laidOut = layOut(content, fonts, { limitsAtFoot: footFirst, nepali, rowLabelsInNepali: nepali });
  if (laidOut.keyLimitsOnPageOne === footFirst)
    laidOut = layOut(content, fonts, { limitsAtFoot: !footFirst, nepali, rowLabelsInNepali: nepali });
  // The contract promises the traveller, the trip and the cover on page 1. At long values the Nepali
  // line under each row's label is what pushes the cover window over: those rows then keep their
  // English labels only, headings, the assistance box and the attestation staying bilingual
  // (decision record 0104). Only such content pays the extra layouts.
  if (!nepali || laidOut.tripOnPageOne) return laidOut.doc;
  const englishRows = layOut(content, fonts, { limitsAtFoot: true, nepali, rowLabelsInNepali: false });
  if (englishRows.tripOnPageOne) return englishRows.doc;
  // Still too long (a 200-character name in a wide script, the longest route, company and
  // agencies): the bilingual assistance box and attestation take the rest, so the page is English.
  return renderCertificate(content, fonts, 'en');
}

function layOut(
  content: CertificateContent,
  fonts: CertificateFonts,
  { limitsAtFoot, nepali, rowLabelsInNepali }: { limitsAtFoot: boolean; nepali: boolean; rowLabelsInNepali: boolean },
): { doc: PDFKit.PDFDocument; keyLimitsOnPageOne: boolean; tripOnPageOne: boolean } {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default Helvetica: every text names its face, and loading the standard font's metrics cost 4 % of a certificate.
    font: '',
    lang: 'en',
    displayTitle: true,
    // Pages stay open until the end: "page N of M" and the specimen mark are drawn once M is known.
    bufferPages: true,
    info: {
      Title: `${content.specimen ? `${SPECIMEN_MARK}: specimen certificate` : 'Certificate of insurance'} ${content.policyNumber}, version ${content.version.number}`,
      Author: content.issuer,
      Subject: `Trekking insurance policy ${content.policyNumber}`,
      // The issue time, not the download time: the same policy gives the same document.
      CreationDate: content.issuedAt,
      ...(content.amendedAt ? { ModDate: content.amendedAt } : {}),
      Keywords: `${content.policyNumber} version ${content.version.number}`,
    },
  });
  // Faces are registered as text needs them: a CJK face is parsed only for a name that uses it.
  for (const face of LATIN_FACES) doc.registerFont(face, faceNamed(fonts, face).font);
  // Measured in before any is drawn: the Nepali attestation's height sets where page 1's foot begins.
  if (nepali) doc.registerFont(NEPALI_FACE, faceNamed(fonts, NEPALI_FACE).font);
  const firstPage = doc.page;
  const write = writer(doc, fonts);
  const attestationStyle = { size: ATTESTATION_SIZE, color: MUTED, width: CONTENT_WIDTH };
  const attestationText = paragraph(write, attestationOf(content, 'en'), content.policyNumber, attestationStyle);
  const attestationNepali = nepali
    ? paragraph(write, attestationOf(content, 'ne'), content.policyNumber, attestationStyle)
    : undefined;
  const attestationEnglishHeight = paragraphHeight(doc, fonts, attestationText, ATTESTATION_SIZE, CONTENT_WIDTH);
  const attestationHeight =
    attestationEnglishHeight +
    (attestationNepali === undefined
      ? 0
      : 3 + paragraphHeight(doc, fonts, attestationNepali, ATTESTATION_SIZE, CONTENT_WIDTH, NEPALI_FACE));
  const assistanceHeight = nepali ? BILINGUAL_ASSISTANCE_HEIGHT : ASSISTANCE_HEIGHT;
  const limits = keyLimits(content.coverage);
  const limitsHeight = limitsAtFoot && limits.length > 0 ? LIMIT_ROW_HEIGHT * (limits.length + 1) + 6 : 0;
  const assistanceTop = PAGE.height - MARGIN - attestationHeight - 8 - assistanceHeight;
  const footTop = assistanceTop - limitsHeight;
  const sheet: Sheet = {
    doc,
    fonts,
    write,
    nepali,
    rowLabelsInNepali,
    room: (height) => {
      const bottom = doc.page === firstPage ? footTop - 10 : PAGE.height - MARGIN;
      if (doc.y + height <= bottom) return;
      doc.addPage();
      // A section carried over to a new page says so, so that a loose page 2 still reads.
      if (sheet.section)
        heading(sheet, {
          en: `${sheet.section.en} ${GLOSSARY.continued.en}`,
          ne: `${sheet.section.ne} ${GLOSSARY.continued.ne}`,
        });
    },
  };

  header(sheet, content);
  section(sheet, GLOSSARY.insured);
  row(sheet, GLOSSARY.name, content.traveller.name, { cjk: cjkFormsFor(content.traveller.nationality) });
  if (content.traveller.passportName !== undefined)
    row(sheet, GLOSSARY.nameAsInPassport, content.traveller.passportName);
  // An officer who reads only Latin gets a reading aid, said not to be the passport's spelling (decision record 0100).
  else if (content.traveller.transliteratedName !== undefined)
    row(sheet, GLOSSARY.nameInLatinLetters, `${content.traveller.transliteratedName} ${TRANSLITERATED}`);
  // A script with no table (Chinese, Arabic…): nothing guessed, and the officer told what to match instead (decision record 0103).
  else if (!isLatin(content.traveller.name)) row(sheet, GLOSSARY.nameInLatinLetters, NO_LATIN_NAME);
  row(sheet, GLOSSARY.dateOfBirth, content.traveller.dateOfBirth);
  row(sheet, GLOSSARY.nationality, content.traveller.nationality);
  row(sheet, ID_LABELS[content.traveller.idType] ?? GLOSSARY.identityDocumentNumber, content.traveller.maskedIdNumber);

  section(sheet, GLOSSARY.tripAndCover);
  routeRows(sheet, content);
  row(
    sheet,
    GLOSSARY.coverageWindow,
    `${content.coverageStartDate} to ${content.coverageEndDate} (${content.durationDays} days, both dates included; Nepal dates, UTC+05:45)`,
  );
  const tripOnPageOne = doc.page === firstPage;
  row(sheet, GLOSSARY.package, `${content.packageName} (${content.packageCode})`);
  row(sheet, GLOSSARY.underwriter, content.underwriter);
  premiumRows(sheet, content);
  soldByRows(sheet, content);
  const wordingTop = row(
    sheet,
    GLOSSARY.policyWording,
    `${content.policyWordingUrl} (version ${content.compliance.policyWordingVersion})`,
  );
  doc.link(VALUE_X, wordingTop, VALUE_WIDTH, doc.y - wordingTop - ROW_GAP, content.policyWordingUrl);

  section(sheet, GLOSSARY.coverage);
  let keyLimitsOnPageOne = true;
  for (const line of content.coverage) {
    amountRow(sheet, line.name, money(content.currency, line.amount));
    if (limits.includes(line) && doc.page !== firstPage) keyLimitsOnPageOne = false;
  }
  includedEquipment(sheet, content);
  addedItems(sheet, content);
  insurerAndIntermediary(sheet, content);
  versions(sheet, content);

  // Back to page 1, into the room kept for them.
  doc.switchToPage(0);
  if (limitsAtFoot) keyLimitRows(sheet, content, limits, footTop);
  assistance(sheet, content, assistanceTop, assistanceHeight);
  const attestationTop = PAGE.height - MARGIN - attestationHeight;
  drawParagraph(sheet, attestationText, MARGIN, attestationTop, attestationStyle);
  if (attestationNepali !== undefined)
    drawParagraph(sheet, attestationNepali, MARGIN, attestationTop + attestationEnglishHeight + 3, attestationStyle);
  everyPage(sheet, content);
  doc.end();
  return { doc, keyLimitsOnPageOne, tripOnPageOne };
}

function header(sheet: Sheet, content: CertificateContent): void {
  const { doc, write } = sheet;
  const band = bandOf(content);
  doc.rect(0, 0, PAGE.width, 86).fill(band.fill);
  write(content.issuer.toUpperCase(), MARGIN, 20, {
    weight: 'bold',
    size: 10,
    color: band.issuer,
    width: CONTENT_WIDTH - 190,
  });
  const title = content.specimen ? SPECIMEN_MARK : GLOSSARY.certificateTitle.en;
  write(title, MARGIN, 35, { weight: 'bold', size: 24, color: band.title, width: CONTENT_WIDTH });
  // A real certificate's title in Nepali too, beside the English one (a specimen's says what it is, decision record 0097).
  if (sheet.nepali && !content.specimen) {
    const after = MARGIN + selectFace(doc, 'latin-bold').fontSize(24).widthOfString(title) + 14;
    write(GLOSSARY.certificateTitle.ne, after, 39, {
      weight: 'bold',
      size: 16,
      color: band.title,
      width: PAGE.width - MARGIN - after,
    });
  }
  write(
    content.specimen
      ? 'A specimen from a test system: nobody is insured by it, whatever it says below'
      : coverageSubtitle(content.coverage),
    MARGIN,
    66,
    { size: 9.5, color: band.subtitle, width: CONTENT_WIDTH },
  );

  const top = 100;
  const qrX = PAGE.width - MARGIN - QR_SIZE;
  drawQrCode(doc, content.verificationLink, qrX, top, QR_SIZE);
  // On a screen the code is a link too.
  doc.link(qrX, top, QR_SIZE, QR_SIZE, content.verificationLink);
  write(GLOSSARY.scanToVerify.en, qrX, top + QR_SIZE + 1, { size: 8, color: MUTED, width: QR_SIZE, align: 'center' });
  if (content.checkCode)
    write(`Check code ${content.checkCode}`, qrX - 10, top + QR_SIZE + 11, {
      weight: 'bold',
      size: 8.5,
      width: QR_SIZE + 20,
      align: 'center',
    });

  const textWidth = qrX - MARGIN - 20;
  write(bilingual(sheet, GLOSSARY.policyNumber, ' · '), MARGIN, top + 4, { size: 9, color: MUTED, width: textWidth });
  write(content.policyNumber, MARGIN, top + 17, { weight: 'bold', size: 22, color: INK, width: textWidth });
  write(`Order ${content.orderRef}`, MARGIN, top + 48, { size: 9.5, color: MUTED, width: textWidth });
  // An amendment takes a line of its own: "Version 2," above "amended <date>: departure moved from ... to ...".
  const [version = '', amendment] = `Issued ${content.version.issuedOn} · ${versionLine(content.version)}`.split(
    /(?<=,) /,
  );
  write(version, MARGIN, top + 62, { size: 9.5, color: MUTED, width: textWidth });
  if (amendment) write(amendment, MARGIN, top + 74, { weight: 'bold', size: 8.5, color: INK, width: textWidth });
  write(`Verify at ${content.verificationUrl}`, MARGIN, top + (amendment ? 87 : 76), {
    size: 8.5,
    color: MUTED,
    width: textWidth,
  });
  // In Nepali under the check code, the header a line longer.
  if (sheet.nepali)
    write(GLOSSARY.scanToVerify.ne, qrX - 10, top + QR_SIZE + 21, {
      size: 7.5,
      color: MUTED,
      width: QR_SIZE + 20,
      align: 'center',
    });
  doc.y = top + QR_SIZE + (sheet.nepali ? 34 : 24);
}

/**
 * On every page, once their number is known: the policy number and "page N of M" at the top (in
 * the band on page 1, in a strip of its own on the others), and across a specimen's pages the
 * SPECIMEN — NOT INSURANCE mark, drawn last so that nothing covers it.
 */
function everyPage(sheet: Sheet, content: CertificateContent): void {
  const { doc, write } = sheet;
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    // Drawn outside the margins: no margin may make pdfkit start a page of its own for them.
    const margins = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    const band = bandOf(content);
    if (index > start) doc.rect(0, 0, PAGE.width, 34).fill(band.fill);
    // A loose page 2 of a specimen says so in its own header too.
    if (content.specimen && index > start)
      write(SPECIMEN_MARK, MARGIN, 12, { weight: 'bold', size: 9.5, color: INK_BLACK, width: 220 });
    const place = `Policy ${content.policyNumber} · page ${index - start + 1} of ${count}`;
    write(place, PAGE.width - MARGIN - 220, index > start ? 12 : 20, {
      weight: 'bold',
      size: 9.5,
      color: content.specimen ? INK_BLACK : '#ffffff',
      width: 220,
      align: 'right',
    });
    if (content.specimen) specimenMark(doc, write);
    doc.page.margins = margins;
  }
}

function specimenMark(doc: PDFKit.PDFDocument, write: Write): void {
  const size = 46;
  const width = selectFace(doc, 'latin-bold').fontSize(size).widthOfString(SPECIMEN_MARK);
  const centre = { x: PAGE.width / 2, y: PAGE.height / 2 };
  doc
    .save()
    .opacity(0.22)
    .rotate(-55, { origin: [centre.x, centre.y] });
  // A watermark artifact, not the page's text: extraction and screen readers skip it (decision record 0100).
  doc.addContent(`${SPECIMEN_ARTIFACT} ${NOTHING_TO_READ}`);
  write(SPECIMEN_MARK, centre.x - width / 2, centre.y - size / 2, {
    weight: 'bold',
    size,
    color: SPECIMEN_RED,
    width: width + 10,
  });
  doc.addContent('EMC EMC');
  doc.restore();
}

/** Heights measured, per parsed face, kept across documents: the labels and most values are the same on every certificate. */
const HEIGHTS = new WeakMap<object, Map<string, number>>();
/** Distinct texts whose height a face keeps; past this it starts over, so memory stays bounded. */
const MAX_HEIGHTS = 4096;

/**
 * The height of `text` wrapped to `width` at `size`, measured in `face` (the Latin one is close
 * enough for a Devanagari name). A height depends on the face, the size, the width and the text
 * alone (pdfkit wraps a text measured alone on a page of no end), so a text measured before is not
 * wrapped again; the face and size are still selected, as measuring leaves them for what follows.
 */
function heightOf(
  doc: PDFKit.PDFDocument,
  fonts: CertificateFonts,
  text: string,
  size: number,
  width: number,
  face = 'latin-regular',
): number {
  selectFace(doc, face).fontSize(size);
  const parsed = faceNamed(fonts, face).font;
  let heights = HEIGHTS.get(parsed);
  if (!heights) HEIGHTS.set(parsed, (heights = new Map<string, number>()));
  const key = `${size} ${width} ${text}`;
  let height = heights.get(key);
  if (height === undefined) {
    height = doc.heightOfString(text.length > 0 ? text : ' ', { width, lineGap: 1 });
    if (heights.size >= MAX_HEIGHTS) heights.clear();
    heights.set(key, height);
  }
  return height;
}

/** A term as printed: both languages, or English alone. */
function bilingual({ nepali }: Pick<Sheet, 'nepali'>, label: Term, between = '  '): string {
  return nepali ? `${label.en}${between}${label.ne}` : label.en;
}

function section(sheet: Sheet, title: Term): void {
  // A heading keeps at least a one-line row with it.
  sheet.section = undefined;
  sheet.room(42);
  heading(sheet, title);
  sheet.section = title;
}

function heading(sheet: Sheet, title: Term): void {
  const { doc, write } = sheet;
  const y = doc.y + 8;
  write(bilingual(sheet, { en: title.en.toUpperCase(), ne: title.ne }), MARGIN, y, {
    weight: 'bold',
    size: 9.5,
    color: ACCENT,
    width: CONTENT_WIDTH,
  });
  doc
    .moveTo(MARGIN, doc.y + 2)
    .lineTo(PAGE.width - MARGIN, doc.y + 2)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();
  doc.y += 6;
}

/**
 * Draws a label and its value side by side, read as one line where the value takes one (see
 * Write.labelled); returns the row's top. A row is never cut in two (pdfkit would carry its
 * wrapped half to the next page and leave the other column behind).
 */
function row(
  { doc, fonts, write, room, rowLabelsInNepali }: Sheet,
  label: Label,
  value: string,
  valueStyle: TextStyle = {},
): number {
  const english = typeof label === 'string' ? label : label.en;
  // The Nepali label stands under the English one, apart from the value: "label value" still reads as one line.
  const nepaliLabel = rowLabelsInNepali && typeof label !== 'string' ? label.ne : undefined;
  const englishHeight = heightOf(doc, fonts, english, 9.5, LABEL_WIDTH);
  const labelHeight =
    englishHeight +
    (nepaliLabel === undefined ? 0 : heightOf(doc, fonts, nepaliLabel, NEPALI_LABEL_SIZE, LABEL_WIDTH, NEPALI_FACE));
  room(Math.max(labelHeight, heightOf(doc, fonts, value, 10.5, VALUE_WIDTH)) + ROW_GAP);
  const top = doc.y;
  let bottom = write.labelled(
    { text: english, x: MARGIN, y: top, style: { size: 9.5, color: MUTED, width: LABEL_WIDTH } },
    { text: value, x: VALUE_X, y: top, style: { size: 10.5, width: VALUE_WIDTH, ...valueStyle } },
  );
  if (nepaliLabel !== undefined) {
    write(nepaliLabel, MARGIN, top + englishHeight, { size: NEPALI_LABEL_SIZE, color: MUTED, width: LABEL_WIDTH });
    bottom = Math.max(bottom, doc.y);
  }
  doc.y = bottom + ROW_GAP;
  return top;
}

function amountRow({ doc, fonts, write, room }: Sheet, name: string, amount: string): void {
  const amountWidth = 130;
  room(heightOf(doc, fonts, name, 10.5, CONTENT_WIDTH - amountWidth - 10) + ROW_GAP);
  const top = doc.y;
  write(name, MARGIN, top, { size: 10.5, width: CONTENT_WIDTH - amountWidth - 10 });
  const afterName = doc.y;
  write(amount, PAGE.width - MARGIN - amountWidth, top, {
    weight: 'bold',
    size: 10.5,
    width: amountWidth,
    align: 'right',
  });
  doc.y = Math.max(afterName, doc.y) + ROW_GAP;
}

/**
 * The route, and the altitude the cover ends at, which a route does not change: a partner's own
 * route name is quoted as the partner's, and a route that climbs higher than the cover says so.
 */
function routeRows(sheet: Sheet, content: CertificateContent): void {
  const { route, coveredAltitude } = content;
  if (route.custom) row(sheet, GLOSSARY.routeAsStated, statedRouteCover(route.name, metres(coveredAltitude)));
  else
    row(
      sheet,
      GLOSSARY.route,
      route.maxAltitude === undefined ? route.name : `${route.name} (highest point ${metres(route.maxAltitude)})`,
    );
  const above = route.maxAltitude !== undefined && route.maxAltitude > coveredAltitude;
  row(
    sheet,
    GLOSSARY.maximumAltitude,
    `${metres(coveredAltitude)}${route.custom || above ? `, whatever the route: nothing above ${metres(coveredAltitude)} is covered` : ''}`,
    { weight: 'bold' },
  );
}

/** Who sold the cover; agency names the partner typed in are quoted as the partner's, never printed as fact. */
function soldByRows(sheet: Sheet, content: CertificateContent): void {
  const { company, agencies, statedByPartner } = content.soldBy;
  row(sheet, GLOSSARY.soldBy, company);
  if (agencies.length > 0) row(sheet, GLOSSARY.agenciesListed, agencies.join(', '));
  if (statedByPartner.length > 0)
    row(sheet, GLOSSARY.agenciesAsStated, statedByPartner.map((name) => `“${name}”`).join(', '));
}

/** What a regulator asks of a certificate: who insures, under which licence and address, who sold it in what role, and the terms in brief. */
function insurerAndIntermediary(sheet: Sheet, content: CertificateContent): void {
  const { compliance } = content;
  section(sheet, GLOSSARY.insurerIntermediaryTerms);
  row(sheet, GLOSSARY.insurer, `${content.underwriter}, ${compliance.insurerAddress}`);
  row(sheet, GLOSSARY.insurerLicence, compliance.insurerLicence);
  row(
    sheet,
    GLOSSARY.issuedBy,
    `${content.issuer}, ${compliance.intermediaryRole}; licence ${compliance.intermediaryLicence}`,
  );
  row(
    sheet,
    GLOSSARY.excess,
    content.excess > 0 ? `${money(content.currency, content.excess)} of each claim is paid by the insured` : 'None',
  );
  if (content.keyTerms) {
    const endorsement = content.route.custom
      ? statedRouteEndorsement(content.route.name, metres(content.coveredAltitude))
      : undefined;
    row(
      sheet,
      GLOSSARY.keyTerms,
      keyTermsSummary(content.keyTerms, content.compliance.policyWordingVersion, endorsement),
    );
  }
}

/**
 * Every version of an amended certificate, oldest first: the window it was issued with and each
 * change, each marked superseded or this certificate, so that an officer holding an earlier paper
 * sees what replaced it (decision record 0100). An unamended certificate has no such list.
 */
function versions(sheet: Sheet, content: CertificateContent): void {
  const { history, number } = content.version;
  if (history.length < 2) return;
  section(sheet, GLOSSARY.versions);
  for (const entry of history) {
    const what = entry.number === 1 ? 'Issued' : entry.change.charAt(0).toUpperCase() + entry.change.slice(1);
    const window = entry.window ? `; cover ${entry.window.start} to ${entry.window.end}` : '';
    const standing = entry.number === number ? 'this certificate' : `superseded by version ${entry.number + 1}`;
    const on = { number: entry.number, date: entry.on };
    row(
      sheet,
      { en: fill(GLOSSARY.version.en, on), ne: fill(GLOSSARY.version.ne, on) },
      `${what}${window} (${standing})`,
    );
  }
}

/** The insurance's price: before and after its discount when there is one. Added items are not in it. */
function premiumRows(sheet: Sheet, content: CertificateContent): void {
  const { premium, currency } = content;
  if (premium.discount > 0) {
    row(
      sheet,
      GLOSSARY.premium,
      `${money(currency, premium.beforeDiscount)}, less discount ${money(currency, premium.discount)}`,
    );
  }
  row(sheet, GLOSSARY.premiumPaid, money(currency, premium.paid));
}

/**
 * The devices the package includes, at their rental for the window: not insurance, so apart from
 * the premium (decision record 0103), as the added items are.
 */
function includedEquipment(sheet: Sheet, content: CertificateContent): void {
  const { equipment, currency } = content;
  section(sheet, GLOSSARY.includedEquipment);
  if (equipment.items.length === 0) row(sheet, GLOSSARY.none, '');
  for (const item of equipment.items) amountRow(sheet, `${item.name} × ${item.quantity}`, money(currency, item.amount));
  if (equipment.discount > 0) amountRow(sheet, 'Equipment paid, after the discount', money(currency, equipment.paid));
}

/** Services and devices the partner sold with the order, at the partner's price: listed apart, as not insurance. */
function addedItems(sheet: Sheet, content: CertificateContent): void {
  if (content.addedItems.length === 0) return;
  section(sheet, GLOSSARY.soldWithPolicy);
  for (const item of content.addedItems)
    amountRow(sheet, `${item.name} × ${item.quantity} (priced by the partner)`, money(content.currency, item.amount));
}

/**
 * Page 1's foot, above the assistance box: the evacuation and medical limits a rescue operator and
 * a hospital ask for, kept there whatever length of content pushes the coverage list to page 2.
 */
function keyLimitRows(
  sheet: Sheet,
  content: CertificateContent,
  limits: readonly CertificateCoverageLine[],
  top: number,
): void {
  const { write } = sheet;
  write(bilingual(sheet, { en: GLOSSARY.keyLimits.en.toUpperCase(), ne: GLOSSARY.keyLimits.ne }), MARGIN, top, {
    weight: 'bold',
    size: 8,
    color: ACCENT,
    width: CONTENT_WIDTH,
  });
  limits.forEach((line, index) => {
    const y = top + (index + 1) * LIMIT_ROW_HEIGHT;
    write(line.name, MARGIN, y, { weight: 'bold', size: 9.5, width: CONTENT_WIDTH - 190 });
    write(perPerson(content.currency, line.amount), PAGE.width - MARGIN - 180, y, {
      weight: 'bold',
      size: 9.5,
      width: 180,
      align: 'right',
    });
  });
}

function assistance({ doc, write, nepali }: Sheet, content: CertificateContent, top: number, height: number): void {
  doc.roundedRect(MARGIN, top, CONTENT_WIDTH, height, 6).lineWidth(1.2).strokeColor(ACCENT).stroke();
  const heading = { weight: 'bold', size: 9.5, color: ACCENT, width: CONTENT_WIDTH - 28 } as const;
  write(GLOSSARY.assistanceHeading.en.toUpperCase(), MARGIN + 14, top + 10, heading);
  // The Nepali heading under the English one; the number and address, the same in both, once.
  const shift = nepali ? 15 : 0;
  if (nepali) write(GLOSSARY.assistanceHeading.ne, MARGIN + 14, top + 24, heading);
  write(`${content.assistance.phone}   ·   ${content.assistance.email}`, MARGIN + 14, top + 26 + shift, {
    weight: 'bold',
    size: 13,
    width: CONTENT_WIDTH - 28,
  });
  const how = { size: 9, color: MUTED, width: CONTENT_WIDTH - 28 } as const;
  const quoting = { policyNumber: content.policyNumber };
  const sentence = (language: keyof Term) =>
    paragraph(write, fill(GLOSSARY.assistanceHow[language], quoting), content.policyNumber, how);
  drawParagraph({ doc, write }, sentence('en'), MARGIN + 14, top + 47 + shift, how);
  if (nepali) drawParagraph({ doc, write }, sentence('ne'), MARGIN + 14, doc.y + 1, how);
}

/**
 * Where pdfkit may cut a policy number at a line's end: a hyphen before a letter, as in the
 * sandbox's SBX-POL-… (the line-breaking rules allow a break there, not before a digit).
 */
const CUTTABLE_NUMBER = /-(?=\p{L})/u;

/** A sentence as drawn: in pdfkit's own lines, or in `lines` given here. */
interface Paragraph {
  text: string;
  lines?: string[];
}

/**
 * A sentence that quotes the policy number: when pdfkit could cut that number ("SBX-" at one line's
 * end, "POL-2026-000087" on the next), it is broken into lines between words only, so the number an
 * officer reads out or types stays whole (decision record 0109); any other sentence keeps pdfkit's
 * wrapping, as before.
 */
function paragraph(write: Write, text: string, policyNumber: string, style: TextStyle): Paragraph {
  if (!CUTTABLE_NUMBER.test(policyNumber) || !text.includes(policyNumber) || style.width === undefined) return { text };
  const width = style.width;
  return { text, lines: logicalLines(text, width, (line) => write.widthOf(line, style)) };
}

/**
 * A paragraph's height: with its own lines, as many lines as it has, each fitted to the width by the
 * faces that draw it (measured in one face, a Nepali line's Latin words are .notdef boxes, wider).
 */
function paragraphHeight(
  doc: PDFKit.PDFDocument,
  fonts: CertificateFonts,
  { text, lines }: Paragraph,
  size: number,
  width: number,
  face?: string,
): number {
  if (lines === undefined) return heightOf(doc, fonts, text, size, width, face);
  return lines.length * heightOf(doc, fonts, ' ', size, width, face);
}

function drawParagraph(
  { doc, write }: Pick<Sheet, 'doc' | 'write'>,
  { text, lines }: Paragraph,
  x: number,
  y: number,
  style: TextStyle,
): void {
  if (lines === undefined) return write(text, x, y, style);
  lines.forEach((line, index) => write(line, x, index === 0 ? y : doc.y, style));
}

function attestationOf(content: CertificateContent, language: keyof Term): string {
  return fill(GLOSSARY.attestation[language], {
    underwriter: content.underwriter,
    policyNumber: content.policyNumber,
    verificationUrl: content.verificationUrl,
  });
}

function metres(altitude: number): string {
  return `${altitude.toLocaleString('en-US')} m`;
}

function money(currency: string, amount: Minor): string {
  return `${currency} ${grouped(amount)}`;
}

/** A coverage limit: each policy insures one traveller, and the limit is that person's. */
function perPerson(currency: string, amount: Minor): string {
  return `${money(currency, amount)} per person`;
}

/** 1,500,000.00: money as printed for people. */
function grouped(amount: Minor): string {
  const [whole = '', fraction] = decimalStringFromMinor(amount).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}
