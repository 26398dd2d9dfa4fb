import { parse } from 'yaml';
import fs from 'node:fs';
import { catalogueProblems, SEED_CATALOGUE_FILE } from '../../src/modules/catalogue/catalogue-import';

const seed = () => parse(fs.readFileSync(SEED_CATALOGUE_FILE, 'utf8'));

describe('the catalogue file format', () => {
  it('accepts the shipped seed catalogue, which is itself such a file', () => {
    expect(catalogueProblems(seed())).toEqual([]);
  });

  it('names the place of every field that breaks the format', () => {
    const file = seed();
    file.routes[1].routeType = 'HELICOPTER';
    delete file.ctgs[0].baseCtgPrice;
    file.ctgs[2].coverage[0].coverageAmount = 'a lot';
    file.ctgs[3].minAge = 0;
    file.ctgs[4].nickname = 'x';
    expect(catalogueProblems(file)).toEqual([
      'routes[1].routeType: must be one of TEAHOUSE, CAMPING, EXPEDITION, PEAK_CLIMBING',
      'ctgs[0]: baseCtgPrice is required',
      'ctgs[2].coverage[0].coverageAmount: must be number',
      'ctgs[3].minAge: must be >= 1',
      'ctgs[4]: nickname is not a field of this format',
    ]);
  });

  it('accepts amounts with two decimals and refuses a third', () => {
    const file = seed();
    file.ctgs[0].baseCtgPrice = 1234.56;
    expect(catalogueProblems(file)).toEqual([]);
    file.ctgs[0].baseCtgPrice = 1234.567;
    expect(catalogueProblems(file)).toEqual(['ctgs[0].baseCtgPrice: must be multiple of 0.01']);
  });

  it('checks what a schema cannot: unique ids and codes, known routes, bands and underwriters', () => {
    const file = seed();
    file.ctgs[1].code = file.ctgs[0].code;
    file.ctgs[2].routeId = '00000000-0000-4000-8000-000000000000';
    file.ctgs[2].productType = 'SPECIAL_ROUTE';
    file.ctgs[3].minAltitude = 9000;
    file.ctgs[4].insuranceCompany = 'Nobody Ltd.';
    const problems = catalogueProblems(file);
    expect(problems).toEqual([
      expect.stringMatching(/^ctgs\[1\] \(.+\): code .+ is already used by ctgs\[0\]/),
      expect.stringMatching(
        /^ctgs\[2\] \(.+\): routeId 00000000-0000-4000-8000-000000000000 is not a route of this file$/,
      ),
      expect.stringMatching(/^ctgs\[3\] \(.+\): minAltitude is above maxAltitude$/),
      expect.stringMatching(/^ctgs\[4\] \(.+\): insuranceCompany "Nobody Ltd\." is not listed in insuranceCompanies$/),
    ]);
  });
});
