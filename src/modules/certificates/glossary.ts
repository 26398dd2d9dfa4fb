/**
 * Every word the certificate and the verify page print in two languages, English and Nepali, from
 * one table: decision record 0104 holds the same table (a test compares the two), drawn from the
 * insurance vocabulary of Nepal's regulator (Nepal Insurance Authority, बीमा प्राधिकरण) so that no
 * label is translated on its own. A `{name}` in a term is filled in where it is printed (fill).
 * The insurer's compliance desk reviews the Nepali column before production (decision record 0104).
 */
export interface Term {
  en: string;
  ne: string;
}

/** What the certificate prints in both languages. */
export const CERTIFICATE_TERMS = {
  // Its title, header and section headings.
  certificateTitle: { en: 'Certificate of Insurance', ne: 'बीमा प्रमाणपत्र' },
  policyNumber: { en: 'Policy number', ne: 'बीमालेख नम्बर' },
  scanToVerify: { en: 'Scan to verify', ne: 'जाँच गर्न स्क्यान गर्नुहोस्' },
  continued: { en: '(continued)', ne: '(क्रमशः)' },
  insured: { en: 'Insured', ne: 'बीमित' },
  tripAndCover: { en: 'Trip and cover', ne: 'यात्रा र बीमा सुरक्षा' },
  coverage: { en: 'Coverage (limits per person)', ne: 'बीमा सुरक्षा (प्रति व्यक्ति बीमाङ्क)' },
  includedEquipment: { en: 'Included equipment (not insurance)', ne: 'समावेश उपकरण (बीमा होइन)' },
  soldWithPolicy: { en: 'Sold with the policy, not insurance', ne: 'बीमालेखसँगै बिक्री गरिएको, बीमा होइन' },
  insurerIntermediaryTerms: { en: 'Insurer, intermediary and terms', ne: 'बीमक, बीमा मध्यस्थ र शर्तहरू' },
  versions: { en: 'Versions of this certificate', ne: 'यस प्रमाणपत्रका संस्करणहरू' },
  keyLimits: {
    en: 'Key limits per person (the whole coverage list is on page 2)',
    ne: 'मुख्य बीमाङ्क, प्रति व्यक्ति (पूरा सूची पृष्ठ २ मा)',
  },
  // The certificate's row labels.
  name: { en: 'Name', ne: 'नाम' },
  nameAsInPassport: { en: 'Name as in passport', ne: 'राहदानी अनुसारको नाम' },
  nameInLatinLetters: { en: 'Name in Latin letters', ne: 'रोमन अक्षरमा नाम' },
  dateOfBirth: { en: 'Date of birth', ne: 'जन्म मिति' },
  nationality: { en: 'Nationality', ne: 'राष्ट्रियता' },
  passportNumber: { en: 'Passport number', ne: 'राहदानी नम्बर' },
  nationalIdNumber: { en: 'National ID card number', ne: 'राष्ट्रिय परिचयपत्र नम्बर' },
  citizenshipNumber: { en: 'Citizenship certificate number', ne: 'नागरिकता प्रमाणपत्र नम्बर' },
  identityDocumentNumber: { en: 'Identity document number', ne: 'परिचय कागजात नम्बर' },
  route: { en: 'Route', ne: 'पदयात्रा मार्ग' },
  routeAsStated: { en: 'Route (as stated by the partner)', ne: 'पदयात्रा मार्ग (साझेदारले उल्लेख गरे अनुसार)' },
  maximumAltitude: { en: 'Maximum altitude covered', ne: 'बीमा सुरक्षा भएको अधिकतम उचाइ' },
  coverageWindow: { en: 'Coverage window', ne: 'बीमा अवधि' },
  package: { en: 'Package', ne: 'बीमा योजना' },
  underwriter: { en: 'Underwriter', ne: 'बीमक' },
  premium: { en: 'Premium', ne: 'बीमाशुल्क' },
  premiumPaid: { en: 'Premium paid', ne: 'भुक्तानी गरिएको बीमाशुल्क' },
  soldBy: { en: 'Sold by', ne: 'बिक्री गर्ने' },
  agenciesListed: { en: 'Agencies listed', ne: 'सूचीकृत एजेन्सीहरू' },
  agenciesAsStated: { en: 'Agencies as stated by the partner', ne: 'साझेदारले उल्लेख गरेका एजेन्सीहरू' },
  policyWording: { en: 'Policy wording', ne: 'बीमालेखका शर्तहरू' },
  none: { en: 'None', ne: 'छैन' },
  insurer: { en: 'Insurer', ne: 'बीमक' },
  insurerLicence: { en: "Insurer's licence", ne: 'बीमकको इजाजतपत्र' },
  issuedBy: { en: 'Issued by', ne: 'जारी गर्ने' },
  excess: { en: 'Excess', ne: 'अनिवार्य अधिक' },
  keyTerms: { en: 'Key terms and exclusions', ne: 'मुख्य शर्त तथा अपवादहरू' },
  version: { en: 'Version {number}, {date}', ne: 'संस्करण {number}, {date}' },
  // The assistance box and the attestation at page 1's foot.
  assistanceHeading: {
    en: '24-hour assistance: rescue, evacuation and medical',
    ne: '२४ घण्टे सहायता: उद्धार, स्थानान्तरण र उपचार',
  },
  assistanceHow: {
    en: 'Open a case through your agency or call before any helicopter evacuation, quoting the policy number {policyNumber}.',
    ne: 'कुनै पनि हेलिकप्टर उद्धारअघि बीमालेख नम्बर {policyNumber} उल्लेख गरी आफ्नो एजेन्सीमार्फत दाबीको प्रक्रिया खोल्नुहोस् वा फोन गर्नुहोस्।',
  },
  attestation: {
    en:
      'This certificate confirms that the traveller named above is insured by {underwriter} under policy {policyNumber} ' +
      'for the coverage window and the altitude shown. The policy wording linked above governs the cover. ' +
      'Anyone may check that it is valid with the QR code or at {verificationUrl}.',
    ne:
      'यो प्रमाणपत्रले माथि नाम उल्लिखित यात्री देखाइएको बीमा अवधि र उचाइका लागि बीमालेख {policyNumber} अन्तर्गत {underwriter} बाट बीमित भएको प्रमाणित गर्दछ। ' +
      'बीमा सुरक्षा माथि उल्लिखित बीमालेखका शर्तहरूले निर्धारण गर्दछन्। ' +
      'यो मान्य छ वा छैन भनी जो कोहीले QR कोड वा {verificationUrl} मा जाँच गर्न सक्नुहुन्छ।',
  },
} as const satisfies Record<string, Term>;

/** What only the verify page says (it uses some of the certificate's labels too). */
const PAGE_TERMS = {
  policy: { en: 'Policy', ne: 'बीमालेख' },
  notYetInForce: { en: 'Not yet in force', ne: 'लागू भइसकेको छैन' },
  notYetInForceFrom: { en: 'NOT YET IN FORCE — from {date}', ne: 'लागू भइसकेको छैन — {date} देखि' },
  notYetInForceExplained: {
    en: 'This policy is paid but does not cover today: its cover begins on {date}.',
    ne: 'यो बीमालेखको बीमाशुल्क भुक्तानी भएको छ तर आज बीमा सुरक्षा छैन: बीमा सुरक्षा {date} देखि सुरु हुन्छ।',
  },
  valid: { en: 'Valid', ne: 'मान्य' },
  validExplained: {
    en: 'This policy covers today, until {date} included.',
    ne: 'यो बीमालेखले आज बीमा सुरक्षा दिन्छ, {date} सम्म (सो दिनसमेत)।',
  },
  expired: { en: 'Expired', ne: 'अवधि समाप्त' },
  expiredExplained: {
    en: 'The cover of this policy ended on {date}: it covers nothing today.',
    ne: 'यो बीमालेखको बीमा सुरक्षा {date} मा समाप्त भयो: आज कुनै बीमा सुरक्षा छैन।',
  },
  cancelled: { en: 'Cancelled', ne: 'रद्द' },
  cancelledOn: { en: 'CANCELLED on {date}', ne: '{date} मा रद्द' },
  cancelledExplained: {
    en: 'This policy was cancelled: it covers nothing.',
    ne: 'यो बीमालेख रद्द भएको छ: कुनै बीमा सुरक्षा छैन।',
  },
  cancelledOnExplained: {
    en: 'This policy was cancelled on {date}: it covers nothing.',
    ne: 'यो बीमालेख {date} मा रद्द भएको छ: कुनै बीमा सुरक्षा छैन।',
  },
  notInForce: { en: 'Not in force', ne: 'लागू छैन' },
  notInForceExplained: { en: 'This policy is not in force.', ne: 'यो बीमालेख लागू छैन।' },
  coverageWindowDates: { en: '{start} to {end} (Nepal dates)', ne: '{start} देखि {end} सम्म (नेपाल समय, ईस्वी सन्)' },
  checkedOn: { en: 'Checked on', ne: 'जाँच गरिएको मिति' },
  checkedOnDate: { en: '{date} (Nepal date)', ne: '{date} (नेपाल समय, ईस्वी सन्)' },
  helicopterEvacuation: { en: 'Helicopter evacuation', ne: 'हेलिकप्टर उद्धार' },
  evacuationIncluded: { en: 'Included, up to {amount} per person', ne: 'समावेश, प्रति व्यक्ति {amount} सम्म' },
  evacuationNotIncluded: { en: 'Not included in this package', ne: 'यस बीमा योजनामा समावेश छैन' },
  anyRegisteredRoute: {
    en: 'Any registered route up to {altitude}',
    ne: '{altitude} सम्मको कुनै पनि दर्ता भएको पदयात्रा मार्ग',
  },
  traveller: { en: 'Traveller', ne: 'यात्री' },
  currentVersion: {
    en: 'Certificate version {number} is the current one.',
    ne: 'प्रमाणपत्रको संस्करण {number} हालको संस्करण हो।',
  },
  checkCodeLabel: {
    en: 'Check code (beside the QR code on the certificate)',
    ne: 'जाँच कोड (प्रमाणपत्रमा QR कोडको छेउमा)',
  },
  check: { en: 'Check', ne: 'जाँच गर्नुहोस्' },
  policyNotFound: { en: 'Policy not found', ne: 'बीमालेख फेला परेन' },
  notFoundInvalid: {
    en: 'A certificate whose number is not found here is not valid.',
    ne: 'यहाँ नम्बर फेला नपर्ने प्रमाणपत्र मान्य हुँदैन।',
  },
  assistanceLine: {
    en: 'Trekker in trouble? Open a case through your agency or call the 24-hour assistance line:',
    ne: 'पदयात्री सङ्कटमा? आफ्नो एजेन्सीमार्फत दाबीको प्रक्रिया खोल्नुहोस् वा २४ घण्टे सहायता लाइनमा फोन गर्नुहोस्:',
  },
  verificationBy: { en: 'Policy verification by {issuer}', ne: '{issuer} द्वारा बीमालेख प्रमाणीकरण' },
  // The page's remaining sentences (issue 50's leftovers, decision record 0109): awaiting the insurer's review.
  noPolicyNumbered: {
    en: 'No policy has the number {policyNumber}. Check it against the number printed on the certificate, or scan its QR code again.',
    ne: 'नम्बर {policyNumber} भएको कुनै बीमालेख छैन। प्रमाणपत्रमा छापिएको नम्बरसँग भिडाउनुहोस्, वा यसको QR कोड फेरि स्क्यान गर्नुहोस्।',
  },
  notAPolicyNumber: {
    en: 'What was looked up is not a policy number (they read POL-year-number, such as POL-2026-000087). Check the number printed on the certificate, or scan its QR code again.',
    ne: 'खोजिएको कुरा बीमालेख नम्बर होइन (बीमालेख नम्बर POL-वर्ष-क्रमसंख्या हुन्छ, जस्तै POL-2026-000087)। प्रमाणपत्रमा छापिएको नम्बर जाँच गर्नुहोस्, वा यसको QR कोड फेरि स्क्यान गर्नुहोस्।',
  },
  noLatinNameOnRecord: {
    en: 'No name in Latin letters on record: the agency gave no name as in the passport. Compare the date of birth and the end of the passport number printed on the certificate.',
    ne: 'रोमन अक्षरमा कुनै नाम अभिलेखमा छैन: एजेन्सीले राहदानी अनुसारको नाम दिएको छैन। प्रमाणपत्रमा छापिएको जन्म मिति र राहदानी नम्बरको अन्तिम भाग भिडाउनुहोस्।',
  },
  travellerShownWithCode: {
    en: 'Shown with the check code printed beside the QR code: scan the code on the certificate, or type it below.',
    ne: 'प्रमाणपत्रमा QR कोडको छेउमा छापिएको जाँच कोडसँग देखाइन्छ: प्रमाणपत्रको कोड स्क्यान गर्नुहोस्, वा तल टाइप गर्नुहोस्।',
  },
  compareInitials: {
    en: "Compare the initials with the traveller's passport. Only the initials are shown here, to protect the traveller's privacy.",
    ne: 'नामका प्रथम अक्षरहरू यात्रीको राहदानीसँग भिडाउनुहोस्। यात्रीको गोपनीयताको रक्षाका लागि यहाँ प्रथम अक्षरहरू मात्र देखाइएका छन्।',
  },
  routeAsStatedOnPage: {
    en: '“{route}”: cover applies on this route as stated, up to {altitude} (the route as stated by the partner)',
    ne: '“{route}”: साझेदारले उल्लेख गरे अनुसारको यस पदयात्रा मार्गमा {altitude} सम्म बीमा सुरक्षा लागू हुन्छ (साझेदारले उल्लेख गरे अनुसारको मार्ग)',
  },
  amendedOn: {
    en: 'Amended on {date}: the cover dates were changed after the policy was issued.',
    ne: '{date} मा संशोधित: बीमालेख जारी भएपछि बीमा अवधिका मितिहरू परिवर्तन गरिए।',
  },
  lastChange: { en: 'Version {number}: {change}.', ne: 'संस्करण {number}: {change}।' },
  versionOneSuperseded: {
    en: 'Version 1 is superseded: a certificate that prints an earlier version no longer holds.',
    ne: 'संस्करण 1 प्रतिस्थापित भइसकेको छ: पुरानो संस्करण छापिएको प्रमाणपत्र अब मान्य हुँदैन।',
  },
  versionsSuperseded: {
    en: 'Versions 1 to {earlier} are superseded: a certificate that prints an earlier version no longer holds.',
    ne: 'संस्करण 1 देखि {earlier} सम्म प्रतिस्थापित भइसकेका छन्: पुरानो संस्करण छापिएको प्रमाणपत्र अब मान्य हुँदैन।',
  },
  supersededCodeTyped: {
    en: "The check code typed is that of certificate version {typed}, which is superseded by version {current}: the dates on that paper are no longer the policy's. The current ones are below.",
    ne: 'टाइप गरिएको जाँच कोड प्रमाणपत्रको संस्करण {typed} को हो, जसलाई संस्करण {current} ले प्रतिस्थापित गरेको छ: त्यो कागजमा भएका मितिहरू अब बीमालेखका होइनन्। हालका मितिहरू तल छन्।',
  },
  checkCodeMismatch: {
    en: 'This check code does not match this policy. Type the code printed beside the QR code on the certificate; a certificate whose code never matches is not valid.',
    ne: 'यो जाँच कोड यस बीमालेखसँग मेल खाँदैन। प्रमाणपत्रमा QR कोडको छेउमा छापिएको कोड टाइप गर्नुहोस्; कोड कहिल्यै मेल नखाने प्रमाणपत्र मान्य हुँदैन।',
  },
  specimenMark: { en: 'SPECIMEN — NOT INSURANCE', ne: 'नमुना — बीमा होइन' },
  specimenPage: {
    en: 'This page comes from a test system. It shows no real policy: nobody is insured by it.',
    ne: 'यो पृष्ठ परीक्षण प्रणालीबाट आएको हो। यसले कुनै वास्तविक बीमालेख देखाउँदैन: यसबाट कोही पनि बीमित छैन।',
  },
  tooManyLookups: { en: 'Too many lookups', ne: 'धेरै पटक खोजी गरियो' },
  tooManyLookupsExplained: {
    en: 'Too many policies were checked from this network in a short time (a mobile network may share one address among many phones). Try again in {seconds} seconds, or call the assistance number below.',
    ne: 'यस नेटवर्कबाट छोटो समयमा धेरै बीमालेख जाँच गरिए (मोबाइल नेटवर्कले एउटै ठेगाना धेरै फोनबीच बाँड्न सक्छ)। {seconds} सेकेन्डपछि फेरि प्रयास गर्नुहोस्, वा तलको सहायता नम्बरमा फोन गर्नुहोस्।',
  },
} as const satisfies Record<string, Term>;

/** Every term, in the order of decision record 0104's table. */
export const GLOSSARY = { ...CERTIFICATE_TERMS, ...PAGE_TERMS };

export type TermKey = keyof typeof GLOSSARY;
export type Language = keyof Term;

/** `template` with each `{name}` replaced by `values[name]`. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A term in `language`, its blanks filled. */
export function term(key: TermKey, language: Language, values?: Record<string, string | number>): string {
  return fill(GLOSSARY[key][language], values);
}
