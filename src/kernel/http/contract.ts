import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { operations, paths } from '../../../generated/api';
import type { CsvExportStream } from '../db/csv-exports';

/**
 * The spec's operations as TypeScript sees them (generated/api.d.ts): what a handler receives and
 * what it may answer, per operationId. A field renamed in spec/ breaks the build here, not a partner.
 */

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type PathOperation = { [P in keyof paths]: paths[P][Method & keyof paths[P]] }[keyof paths];

/** Operations served under a path; `operations` also holds the webhooks we send, which nobody calls. */
export type OperationId = {
  [Id in keyof operations]: operations[Id] extends PathOperation ? Id : never;
}[keyof operations];

type Parameters<Id extends OperationId> = operations[Id]['parameters'];
type JsonOf<Content> = Content extends { 'application/json': infer Body } ? Body : undefined;
type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: { content: infer Content } }
  ? JsonOf<Content>
  : operations[Id] extends { requestBody?: { content: infer Content } }
    ? JsonOf<Content> | undefined
    : undefined;
/** A section with no parameters reads as an empty object, as openapi-backend hands it over. */
type Section<Value> = [NonNullable<Value>] extends [never] ? Record<string, never> : NonNullable<Value>;

/** A request openapi-backend has validated (and type-coerced) against operation `Id`. */
export interface ContractRequest<Id extends OperationId> {
  body: BodyOf<Id>;
  params: Section<Parameters<Id>['path']>;
  query: Section<Parameters<Id>['query']>;
  headers: IncomingHttpHeaders;
}

type Headers = Record<string, string>;

/** A media type as the spec names it, or with parameters (`text/plain; version=0.0.4`). */
type MediaType<Name extends string> = Name | `${Name}; ${string}`;

type NonJsonAnswer<Status, Name, Body> = Name extends string
  ? Name extends 'application/json'
    ? never
    : Name extends 'text/csv'
      ? // A CSV answer is an export, and every export takes the kernel's one path (decision record 0094).
        { status: Status; contentType: MediaType<Name>; stream: CsvExportStream; headers?: Headers }
      : Body extends string
        ? | { status: Status; contentType: MediaType<Name>; body: string; headers?: Headers }
          | { status: Status; contentType: MediaType<Name>; stream: Readable; headers?: Headers }
        : never
  : never;

type AnswerFor<Status, Response> = Response extends { content: infer Content }
  ? | ('application/json' extends keyof Content
        ? { status: Status; body: Content['application/json']; headers?: Headers }
        : never)
    | { [Name in keyof Content]: NonJsonAnswer<Status, Name, Content[Name]> }[keyof Content]
  : { status: Status; headers?: Headers };

type Responses<Id extends OperationId> = operations[Id]['responses'];

/** Every answer operation `Id` documents: a JSON body, another media type's text or stream, or none (a redirect). */
export type ContractResponse<Id extends OperationId> = Id extends OperationId
  ? { [Status in keyof Responses<Id>]: AnswerFor<Status, Responses<Id>[Status]> }[keyof Responses<Id>]
  : never;

/** Any operation's answer, as the HTTP layer writes it. */
