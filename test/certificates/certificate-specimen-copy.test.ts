import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { certificateContent, renderedCertificate } from '../support/certificate-fixtures';
import { requireSystemTool } from '../support/system-tools';

/**
 * A sandbox certificate must not pass for a real one on a photocopy: its pages are rendered as a
 * greyscale scan (poppler), made black and white at the half-way threshold a copier uses, and read
 * back with OCR (tesseract). The title band and the later pages' headers must still say SPECIMEN —
 * NOT INSURANCE; a live certificate must not (decision record 0097).
 */
const run = promisify(execFile);

/** A binary PGM (P5) greyscale image. */
interface Greyscale {
  width: number;
  height: number;
  pixels: Buffer;
}

function readPgm(file: string): Greyscale {
  const bytes = fs.readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header?.[1] || !header[2]) throw new Error(`${file} is not a binary PGM`);
  return { width: Number(header[1]), height: Number(header[2]), pixels: bytes.subarray(header[0].length) };
}

function writePgm(file: string, image: Greyscale): void {
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.pixels]));
}

/** The top of a page (its title band or header strip: the first 90 points), where the words must survive. */
const top = (image: Greyscale): Greyscale => {
  const height = Math.min(image.height, Math.round((90 / 72) * 150));
  return { ...image, height, pixels: image.pixels.subarray(0, image.width * height) };
};

/** What a black-and-white copier keeps: every pixel darker than half-way black, the rest white. */
const threshold = (image: Greyscale): Greyscale => ({
  ...image,
  pixels: Buffer.from(image.pixels.map((value) => (value < 128 ? 0 : 255))),
});

/** The tops of pages 1 and 2 of `pdf` as OCR reads them, greyscale and after the threshold, upper-cased, spaces collapsed. */
async function photocopied(pdf: Buffer): Promise<Array<{ page: number; grey: string; blackAndWhite: string }>> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'specimen-copy-'));
  try {
    fs.writeFileSync(path.join(directory, 'certificate.pdf'), pdf);
    await run(requireSystemTool('pdftoppm'), ['-gray', '-r', '150', '-f', '1', '-l', '2', 'certificate.pdf', 'page'], {
      cwd: directory,
    });
    const pages = fs
      .readdirSync(directory)
      .filter((file) => /^page-\d+\.pgm$/.test(file))
      .sort();
    // Awaited here: the folder is removed once every page is read.
    return await Promise.all(
      pages.map(async (file, index) => {
        const page = top(readPgm(path.join(directory, file)));
        const grey = path.join(directory, `grey-${file}`);
        const blackAndWhite = path.join(directory, `bw-${file}`);
        writePgm(grey, page);
        writePgm(blackAndWhite, threshold(page));
        const read = async (image: string) =>
          (await run(requireSystemTool('tesseract'), [image, '-', '--psm', '6'], { maxBuffer: 4 * 1024 * 1024 })).stdout
            .toUpperCase()
            .replace(/\s+/g, ' ');
        return { page: index + 1, grey: await read(grey), blackAndWhite: await read(blackAndWhite) };
      }),
    );
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** OCR reads the em dash as one of several dashes, or not at all. */
const SPECIMEN = /SPECIMEN\W{0,4}NOT INSURANCE/;

describe('a specimen certificate on a black-and-white copy', () => {
  beforeAll(() => {
    requireSystemTool('pdftoppm');
    requireSystemTool('tesseract');
  });

  it('still says SPECIMEN — NOT INSURANCE in its title band and on every later page, in greyscale and after a threshold', async () => {
    const pages = await photocopied(await renderedCertificate(certificateContent('Sophie Keller'), 'specimen copy'));
    expect(pages.length).toBe(2);
    for (const page of pages) {
      expect({ page: page.page, grey: SPECIMEN.test(page.grey) }).toEqual({ page: page.page, grey: true });
      expect({ page: page.page, blackAndWhite: SPECIMEN.test(page.blackAndWhite) }).toEqual({
        page: page.page,
        blackAndWhite: true,
      });
    }
    // The title no longer claims to be a certificate of insurance.
    expect(pages[0]?.blackAndWhite).not.toContain('CERTIFICATE OF INSURANCE');
  }, 60_000);

  it('when the certificate is live, then no copy of it says SPECIMEN, and its title is the certificate of insurance', async () => {
    const pages = await photocopied(
      await renderedCertificate(certificateContent('Sophie Keller', { specimen: false }), 'live copy'),
    );
    for (const page of pages) expect(page.blackAndWhite).not.toContain('SPECIMEN');
    expect(pages[0]?.blackAndWhite).toContain('CERTIFICATE OF INSURANCE');
  }, 60_000);
});
