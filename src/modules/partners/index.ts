/** The partners module's face: companies, credentials, commission percents and the demo data the CLI manages, and `GET /me`; only what the composition, the CLI and other modules use. */
export { type PercentChange, setAgentCommission, setCompanyCommission } from './commission-percents';
export { setCompanyPan } from './company-pan';
export { deactivateDemoData, describeDemoData, refuseActiveDemoData } from './demo-data-guard';
export { DEMO_PARTNERS } from './demo-partners';
export { partnerHandlers } from './handlers';
export { createCompany, deactivateCompany, issueCredential, revokeCredential } from './partner-access';
export { createSalesAgent, deactivateSalesAgent, findSalesAgent, findSalesCompany } from './sales-agents';
export { seed } from './seed';
