// Reads a PDF from standard input with pdf-parse (PDF.js) and prints what a reader of the file
// gets: its text, its pages' sizes and its links. A process of its own: PDF.js loads its worker
// with a dynamic import(), which Jest's module sandbox refuses.
import { PDFParse } from 'pdf-parse';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
const text = await parser.getText({ pageJoiner: '' });
const info = await parser.getInfo({ parsePageInfo: true });
await parser.destroy();
process.stdout.write(JSON.stringify({
  text: text.text,
  pages: (info.pages ?? []).map((page, index) => ({
    width: page.width,
    height: page.height,
    links: page.links.map((link) => link.url),
    text: text.pages[index]?.text ?? '',
  })),
  title: info.info?.Title ?? null,
}));
