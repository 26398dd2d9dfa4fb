import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'postman');

/** Every file of postman/ with its bytes, as committed. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(OUT).sort().map((name) => [name, fs.readFileSync(path.join(OUT, name)).toString('base64')]));
}

/** Issue 37: the Postman collection is committed, in folders, and `npm run postman` regenerates it in postman/ alone. */
describe('npm run postman: the committed collection', () => {
  it('is what the script writes, and the script writes nothing outside postman/, from wherever it is run', () => {
    const committed = snapshot();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'postman-cwd-'));
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/postman.mjs')], { cwd: elsewhere, stdio: ['ignore', 'ignore', 'inherit'] });
      expect(fs.readdirSync(elsewhere)).toEqual([]);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
    // A contract change that the committed collection does not follow fails here: run `npm run postman` and commit postman/.
    expect(snapshot()).toEqual(committed);
    expect(Object.keys(committed)).toEqual(['avatar.png', 'collection.json', 'passport.png', 'sandbox.postman_environment.json', 'signature.png']);
  });

  it('walks the life of a policy in folders: booking, payment, after the sale, order book, webhooks, events', () => {
    const collection = JSON.parse(fs.readFileSync(path.join(OUT, 'collection.json'), 'utf8')) as { item: Array<{ name: string; item: Array<{ name: string; event: Array<{ script: { exec: string[] } }> }> }> };
    expect(collection.item.map((folder) => folder.name)).toEqual(['Booking', 'Payment', 'After the sale', 'Order book', 'Webhooks', 'Events']);
    const operationsOf = (folder: string) =>
      (collection.item.find((candidate) => candidate.name === folder)?.item ?? []).map((request) => /pm\.test\('(\w+) answers/.exec(request.event[0]?.script.exec.join('\n') ?? '')?.[1]);
    expect(operationsOf('Payment')).toEqual(['payOrder', 'getPaymentStatus']);
    expect(operationsOf('After the sale')).toEqual(['updateOrder', 'previewOrderCancellation', 'cancelOrder', 'listRefunds']);
    expect(operationsOf('Order book')).toEqual(expect.arrayContaining(['listOrders', 'getOrderGroup']));
    expect(operationsOf('Events')).toEqual(['listEvents', 'getEvent']);
  });
});
