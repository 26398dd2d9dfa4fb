import fs from 'node:fs';
import path from 'node:path';

/**
 * DESIGN section 1: a module's index.ts names what it exports, and only what another module
 * uses. Checked for the modules of the money after the sale, whose faces were `export *` before.
 */
const MODULES = path.join(__dirname, '../../src/modules');

describe('the faces of orders, payments and refunds', () => {
  it.each(['orders', 'payments', 'refunds'])('%s/index.ts names its exports (no export *)', (module) => {
    const face = fs.readFileSync(path.join(MODULES, module, 'index.ts'), 'utf8');
    expect(face).not.toMatch(/export\s+\*/);
  });
});
