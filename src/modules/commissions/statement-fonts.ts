type Font = Parameters<PDFKit.PDFDocument['registerFont']>[1];

/**
 * The certificate's faces as the statement needs them (structurally: the certificates module's
 * CertificateFonts is one), so that this module prints in them without importing that module,
 * which reaches the orders module that shows commission lines.
 */
export interface StatementFonts {
  faces: ReadonlyArray<{
    name: string;
    weight: 'regular' | 'bold';
    has(codePoint: number): boolean;
    readonly font: Font;
  }>;
  byName: ReadonlyMap<string, { readonly font: Font }>;
}

export interface Run {
  face: string;
  text: string;
}

/**
 * `text` cut into runs of faces that have its glyphs: the Latin face of the weight where it can,
 * else the first face of that weight (then of any) with the glyph. Names of partners and insurers
 * are short, so a scan of the faces for a rare character is cheap.
 */
export function textRuns(fonts: StatementFonts, text: string, weight: 'regular' | 'bold'): Run[] {
  const latin = `latin-${weight}`;
  const latinFace = fonts.faces.find((face) => face.name === latin);
  const runs: Run[] = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    const face = latinFace?.has(codePoint)
      ? latin
      : ((fonts.faces.find((f) => f.weight === weight && f.has(codePoint)) ?? fonts.faces.find((f) => f.has(codePoint)))
          ?.name ?? latin);
    const last = runs.at(-1);
    if (last?.face === face) last.text += character;
    else runs.push({ face, text: character });
  }
  return runs;
}

/** Registers a face in a document the first time it is used there. */
export function faceRegistrar(doc: PDFKit.PDFDocument, fonts: StatementFonts): (face: string) => void {
  const registered = new Set<string>();
  return (face) => {
    if (registered.has(face)) return;
    const found = fonts.byName.get(face);
    if (!found) throw new Error(`no face ${face} among the certificate fonts`);
    doc.registerFont(face, found.font);
    registered.add(face);
  };
}
