/** The travellers module's face: the traveller handlers; only what the composition, the CLI and other modules use. */
export { travellerHandlers, travellerPolicies } from './handlers';
