/// <reference types="pdfkit" />
import QRCode from 'qrcode';

/**
 * Draws `text` as a QR code of `size` points at (x, y) in vector form: one rectangle per run of
 * dark modules in a row, with the four-module quiet zone the standard asks for inside `size`.
 * Vector squares stay sharp at any zoom and cost no image decoding. Error correction M (15 %)
 * survives a creased or smudged printout.
 */
export function drawQrCode(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  // One byte-mode segment: a URL with lower-case letters is byte mode anyway, and naming it spares
  // qrcode its search for the optimal mix of modes (a graph search per code).
  const { modules } = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const unit = size / (modules.size + 2 * quiet);
  doc.save().rect(x, y, size, size).fill('#ffffff');
  for (let row = 0; row < modules.size; row++) {
    let start = -1;
    for (let column = 0; column <= modules.size; column++) {
      const dark = column < modules.size && modules.get(row, column);
      if (dark && start < 0) start = column;
      if (!dark && start >= 0) {
        doc.rect(x + (quiet + start) * unit, y + (quiet + row) * unit, (column - start) * unit, unit);
        start = -1;
      }
    }
  }
  doc.fill('#000000').restore();
}
