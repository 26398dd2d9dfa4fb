import { readFileSync } from 'node:fs';
import path from 'node:path';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};

describe('the runtime', () => {
  it('is Node 24 LTS, the version the project pins, whatever Node the machine has', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(process.versions.node).toBe(manifest.dependencies.node);
    expect(manifest.engines.node).toMatch(/^>=24\./);
  });
});
