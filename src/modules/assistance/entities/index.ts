import { AssistanceCase } from './assistance-case';
import { AssistanceCaseDocument } from './assistance-case-document';
import { AssistanceCaseEntry } from './assistance-case-entry';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const ASSISTANCE_ENTITIES = [AssistanceCase, AssistanceCaseEntry, AssistanceCaseDocument];
