/** What an uploaded document is for; the wire enum of the same name and the column's values. */
export enum DocumentType {
  Avatar = 'AVATAR',
  Passport = 'PASSPORT',
  Signature = 'SIGNATURE',
  Visa = 'VISA',
  MedicalReport = 'MEDICAL_REPORT',
  Invoice = 'INVOICE',
  Receipt = 'RECEIPT',
  PoliceReport = 'POLICE_REPORT',
  TravelDocument = 'TRAVEL_DOCUMENT',
  DeathCertificate = 'DEATH_CERTIFICATE',
}
