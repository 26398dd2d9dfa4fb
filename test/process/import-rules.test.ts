import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The module layout's import rules (.dependency-cruiser.cjs), run by dependency-cruiser itself on
 * small trees written for each rule: every rule must fail on the wrong import it names, and the
 * service's own src/ must pass them all.
 */
const ROOT = path.resolve(__dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): Violation[] {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    // The JSON of the whole tree passed spawnSync's default 1 MiB once claims and extensions landed.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
  const result: unknown = JSON.parse(run.stdout);
  if (typeof result !== 'object' || result === null || !('summary' in result))
    throw new Error('dependency-cruiser answered no summary');
  const { summary } = result as { summary: { violations: Violation[] } };
  return summary.violations;
}

/** A tree of its own with the given files, plus what every tree has: a kernel file, two modules with an index and an entity. */
function treeWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  const base: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true },
      include: ['src/**/*.ts'],
    }),
    'src/kernel/money.ts': 'export const minor = (amount: number) => Math.round(amount * 100);\n',
    'src/modules/orders/index.ts': "export { placeOrder } from './place-order';\n",
    'src/modules/orders/place-order.ts':
      "import { minor } from '../../kernel/money';\nexport const placeOrder = () => minor(1);\n",
    'src/modules/orders/entities/order.ts': 'export class Order { id = 1; }\n',
    'src/modules/payments/index.ts': "export { pay } from './pay';\n",
    'src/modules/payments/pay.ts':
      "import { placeOrder } from '../orders';\nimport { Order } from '../orders/entities/order';\nexport const pay = () => [placeOrder(), new Order()];\n",
  };
  for (const [file, text] of Object.entries({ ...base, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const rulesBroken = (files: Record<string, string>) =>
  cruise(treeWith(files)).map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);

describe('the import rules of the module layout', () => {
  it('pass on the service itself', () => {
    expect(cruise(ROOT)).toEqual([]);
  });

  it('pass on a module that uses another through its index.ts and names its entities', () => {
    expect(rulesBroken({})).toEqual([]);
  });

  it('reject the kernel importing a module', () => {
    expect(
      rulesBroken({
        'src/kernel/money.ts': "import { pay } from '../modules/payments';\nexport const minor = () => pay();\n",
      }),
    ).toContain('kernel-imports-no-module: src/kernel/money.ts -> src/modules/payments/index.ts');
  });

  it("reject a module reaching into another module's file", () => {
    const broken = rulesBroken({
      'src/modules/payments/pay.ts':
        "import { placeOrder } from '../orders/place-order';\nexport const pay = () => placeOrder();\n",
    });
    expect(broken).toContain(
      'module-through-its-index: src/modules/payments/pay.ts -> src/modules/orders/place-order.ts',
    );
  });

  it('reject the composition reaching past a module index', () => {
    expect(
      rulesBroken({
        'src/app.ts': "import { placeOrder } from './modules/orders/place-order';\nexport const app = placeOrder;\n",
      }),
    ).toContain('composition-through-index: src/app.ts -> src/modules/orders/place-order.ts');
  });

  it('reject an import circle between two modules, and allow one only between the listed entities', () => {
    const broken = rulesBroken({
      'src/modules/orders/place-order.ts': "import { pay } from '../payments';\nexport const placeOrder = () => pay;\n",
    });
    expect(broken.filter((line) => line.startsWith('no-circular:')).length).toBeGreaterThan(0);
    const entities = {
      'src/modules/orders/entities/order.ts':
        "import { Refund } from './refund';\nexport class Order { refunds: Refund[] = []; }\n",
      'src/modules/orders/entities/refund.ts':
        "import { Order } from './order';\nexport class Refund { order?: Order; }\n",
    };
    expect(rulesBroken(entities).filter((line) => line.startsWith('no-circular:'))).toEqual([
      'no-circular: src/modules/orders/entities/refund.ts -> src/modules/orders/entities/order.ts',
    ]);
  });

  it('reject refunds importing a use case of orders or payments (its callers), and allow their entities', () => {
    const refunds = {
      'src/modules/refunds/index.ts': "export { refund } from './refund';\n",
      'src/modules/refunds/refund.ts':
        "import { Order } from '../orders/entities/order';\nexport const refund = () => new Order();\n",
    };
    expect(rulesBroken(refunds)).toEqual([]);
    const callingBack = rulesBroken({
      ...refunds,
      'src/modules/refunds/refund.ts':
        "import { placeOrder } from '../orders';\nexport const refund = () => placeOrder();\n",
    });
    expect(callingBack).toContain(
      'refunds-call-back-no-caller: src/modules/refunds/refund.ts -> src/modules/orders/index.ts',
    );
  });

  it("reject a module's settings.ts that imports more than the kernel", () => {
    const broken = rulesBroken({
      'src/modules/payments/settings.ts': "import { pay } from './pay';\nexport const settings = { pay };\n",
    });
    expect(broken).toContain('settings-stand-alone: src/modules/payments/settings.ts -> src/modules/payments/pay.ts');
  });
});
