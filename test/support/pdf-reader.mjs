// Reads a PDF from standard input with pdf-parse (PDF.js) and prints what a reader of the file
// gets: its text, its pages' sizes and its links. A process of its own: PDF.js loads its worker
// with a dynamic import(), which Jest's module sandbox refuses.
import { PDFParse } from 'pdf-parse';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
const text = await parser.getText({ pageJoiner: '' });
const info = await parser.getInfo({ parsePageInfo: true });
// Where each piece of text sits: a test of the layout asks which page and how far down a line is.
const document = await parser.load();
const items = [];
for (let number = 1; number <= document.numPages; number++) {
  const page = await document.getPage(number);
  const { height } = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  items.push(
    content.items
      .filter((item) => 'str' in item && item.str.trim() !== '')
      .map((item) => ({
        text: item.str,
        x: item.transform[4],
        width: item.width,
        // From the top of the page, as a reader looks down it; the baseline of the text.
        y: height - item.transform[5],
      })),
  );
}
await parser.destroy();
process.stdout.write(
  JSON.stringify({
    text: text.text,
    pages: (info.pages ?? []).map((page, index) => ({
      width: page.width,
      height: page.height,
      links: page.links.map((link) => link.url),
      text: text.pages[index]?.text ?? '',
      items: items[index] ?? [],
    })),
    title: info.info?.Title ?? null,
  }),
);
