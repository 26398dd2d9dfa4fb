// What the certificate's second language costs (issue 50 item 7, decision record 0104): the CPU
// to render one certificate in English and Nepali (the default) against the English-only
// rendering, in the same process and run, alternating. Target: bilingual within 1.2x.
// In process, no server: renderCertificate over the shared fonts, each PDF read to its last byte.
// CERT_LANG_ROUNDS rounds (default 6) of CERT_LANG_BATCH certificates (default 40) each way, the
// order of the two flipped every round; half the certificates have a Devanagari name, half a Latin
// one, as bench/certificate.mjs. The figure is the median of the per-round ratios.
// Run: npm run build && node bench/certificate-languages.mjs (npm run bench:certificate runs it first).
import os from 'node:os';
import { createRequire } from 'node:module';
import { writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const { renderCertificate } = require('../dist/src/modules/certificates/certificate-pdf.js');
const { loadCertificateFonts } = require('../dist/src/modules/certificates/certificate-fonts.js');

const ROUNDS = Number(process.env.CERT_LANG_ROUNDS ?? 6);
const BATCH = Number(process.env.CERT_LANG_BATCH ?? 40);
const WARM_UP = 20;
const TARGET = 1.2;

/** A certificate as a paid order gives it: a registered route, six coverage lines, one device. */
const content = (name) => ({
  specimen: false,
  policyNumber: 'POL-2026-000087',
  orderRef: 'ORD-2026-000142',
  issuedAt: new Date('2026-09-20T08:24:39Z'),
  issuer: 'Himalayan Trek Cover',
  version: { number: 1, issuedOn: '2026-09-20', history: [{ number: 1, on: '2026-09-20', change: 'issued' }] },
  premium: { beforeDiscount: 2_100_000, discount: 140_000, paid: 1_960_000 },
  // The package's included device, printed apart from the premium (decision record 0103).
  equipment: { items: [{ name: 'Satellite SOS beacon', quantity: 1, amount: 150_000 }], discount: 0, paid: 150_000 },
  addedItems: [],
  soldBy: { company: 'Himalayan Trails Pvt. Ltd.', agencies: ['Khumbu Guides'], statedByPartner: [] },
  policyWordingUrl: 'https://cover.example/wording.pdf',
  keyTerms: 'Valid only on the Everest Base Camp Trek route; Lukla flight delays covered up to 3 days.',
  excess: 500_000,
  compliance: {
    policyWordingVersion: 'TREK-2026.1',
    insurerLicence: 'NIA licence 07/2061',
    insurerAddress: 'Kamaladi, Kathmandu',
    intermediaryRole: 'Corporate agent of the insurer',
    intermediaryLicence: 'NIA agent licence 1234',
  },
  traveller: {
    name,
    ...(name.startsWith('S') ? {} : { passportName: 'SHARMA, SITA' }),
    dateOfBirth: '1991-03-14',
    nationality: 'Nepal',
    idType: 'PASSPORT',
    maskedIdNumber: '••••••T47',
  },
  route: { name: 'Everest Base Camp Trek', custom: false, maxAltitude: 5364 },
  coveredAltitude: 6000,
  coverageStartDate: '2026-10-01',
  coverageEndDate: '2026-10-16',
  durationDays: 16,
  packageCode: 'EBC-STANDARD',
  packageName: 'Everest Base Camp Standard',
  underwriter: 'Sagarmatha Insurance Co. Ltd.',
  currency: 'NPR',
  coverage: ['EMERGENCY_EVACUATION', 'MEDICAL_EXPENSES', 'COVER_3', 'COVER_4', 'COVER_5', 'COVER_6'].map((code, i) => ({
    code,
    name: `Cover ${i + 1}: helicopter rescue and evacuation above 4,000 m`,
    amount: (i + 1) * 10_000_000,
  })),
  assistance: { phone: '+977 1 4000 000', email: 'assistance@himalayantrekcover.example' },
  verificationUrl: 'https://partners.example/verify/POL-2026-000087',
  verificationLink: 'https://partners.example/verify/POL-2026-000087?code=7KQ2MX',
  checkCode: '7KQ2MX',
});
const CONTENTS = [content('Sophie Keller'), content('सीता शर्मा')];

const fonts = loadCertificateFonts();

/** Renders `count` certificates in `languages` and reads each to its end; answers CPU ms per certificate and mean bytes. */
async function batch(languages, count) {
  let bytes = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    for await (const chunk of renderCertificate(CONTENTS[i % CONTENTS.length], fonts, languages)) bytes += chunk.length;
  }
  const used = process.cpuUsage(before);
  return { cpuMs: (used.user + used.system) / 1000 / count, bytes: bytes / count };
}

async function main() {
  const loadBefore = os.loadavg();
  await batch('en', WARM_UP);
  await batch('en+ne', WARM_UP);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['en', 'en+ne'] : ['en+ne', 'en'];
    const result = {};
    for (const languages of order) result[languages] = await batch(languages, BATCH);
    rounds.push({ english: result.en, bilingual: result['en+ne'], ratio: result['en+ne'].cpuMs / result.en.cpuMs });
  }
  const loadAfter = os.loadavg();
  const ratios = rounds.map((r) => r.ratio).sort((a, b) => a - b);
  const middle = ratios.length / 2;
  const median = ratios.length % 2 ? ratios[Math.floor(middle)] : (ratios[middle - 1] + ratios[middle]) / 2;
  const mean = (key) => rounds.reduce((sum, r) => sum + r[key].cpuMs, 0) / rounds.length;
  const report = [
    `Run ${new Date().toISOString()}, Node ${process.version}, ${ROUNDS} rounds of ${BATCH} certificates each way (after ${WARM_UP} each to warm up), ` +
      `alternating order, half with a Devanagari name; in process, no server. Load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ` +
      `${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after, on ${os.cpus().length} cores`,
    '',
    '| round | English only: CPU ms / certificate | English and Nepali: CPU ms / certificate | ratio |',
    '|---|---|---|---|',
    ...rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.english.cpuMs.toFixed(1)} | ${r.bilingual.cpuMs.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
    ),
    '',
    `Mean CPU per certificate: English only ${mean('english').toFixed(1)} ms, English and Nepali ${mean('bilingual').toFixed(1)} ms; ` +
      `mean PDF size ${(rounds[0].english.bytes / 1024).toFixed(1)} / ${(rounds[0].bilingual.bytes / 1024).toFixed(1)} KiB.`,
    `Median ratio ${median.toFixed(2)} (rounds ${ratios[0].toFixed(2)} to ${ratios[ratios.length - 1].toFixed(2)}); within ${TARGET}x -> ${median <= TARGET ? 'PASS' : 'FAIL'}`,
  ].join('\n');
  console.log(report);
  writeResult('certificate-languages', report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
