import { AccessToken } from './access-token';
import { Company } from './company';
import { Credential } from './credential';
import { Ctg } from './ctg';
import { Document } from './document';
import { Quote } from './quote';
import { RateLimitBucket } from './rate-limit-bucket';
import { Route } from './route';
import { SalesAgent } from './sales-agent';
import { Traveller } from './traveller';

/** Every entity the ORM knows; listed explicitly so no folder scanning happens at start. */
export const entities = [Company, SalesAgent, Credential, AccessToken, Route, Ctg, Quote, Document, Traveller, RateLimitBucket];
