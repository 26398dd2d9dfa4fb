/**
 * What the PDF judge (pdf-check-worker.mjs, run by PdfCheckPool) decides: a PDF that only shows
 * pages, one with active content (the first active name found, such as `/OpenAction`), or one it
 * could not decide (unreadable, encrypted, over the time, memory or inflated-size budget).
 */
export type PdfVerdict = { kind: 'clean' } | { kind: 'active'; name: string } | { kind: 'undecidable'; reason: string };

/** Why a PDF is refused, worded as the rest of judgeUpload's reasons; undefined for one that only shows pages. */
export function pdfProblem(verdict: PdfVerdict): string | undefined {
  switch (verdict.kind) {
    case 'clean':
      return undefined;
    case 'active':
      return `is a PDF with active content (${verdict.name}): send a PDF that only shows pages`;
    case 'undecidable':
      return `is a PDF that could not be checked (${verdict.reason}): send a PDF that only shows pages`;
  }
}
