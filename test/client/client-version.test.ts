import fs from 'node:fs';

const json = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('the typed client package', () => {
  it("carries the contract's version, so a partner installs the client of the API it calls", () => {
    expect(json('clients/typescript/package.json').version).toBe(json('generated/openapi.json').info.version);
  });
});
