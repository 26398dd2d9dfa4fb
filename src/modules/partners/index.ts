/** The partners module's face: companies, credentials, commission percents and the demo partners (seeded and ended by the composition with promos' demo codes), and `GET /me`; only what the composition, the CLI and other modules use. */
export { type PercentChange, setAgentCommission, setCompanyCommission } from './commission-percents';
export { setCompanyPan } from './company-pan';
export {
  type ActiveDemoPartners,
  activeDemoPartners,
  deactivateDemoPartners,
  DEMO_AGENTS,
  DEMO_PARTNERS,
  seedDemoPartners,
} from './demo-partners';
export { partnerHandlers } from './handlers';
export { createCompany, deactivateCompany, issueCredential, revokeCredential } from './partner-access';
export { createSalesAgent, deactivateSalesAgent, findSalesAgent, findSalesCompany } from './sales-agents';
