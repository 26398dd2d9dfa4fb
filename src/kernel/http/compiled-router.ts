import { OpenAPIRouter, type Operation, type ParsedRequest, type Request } from 'openapi-backend';
import { present } from '../narrow';

type Query = Record<string, unknown>;

/** A templated path, compiled once: its pattern and its parameters in order. */
interface CompiledPath {
  operation: Operation;
  pattern: RegExp;
  names: string[];
  /** openapi-backend's specificity: the length of the path without its `{parameters}`. */
  literalLength: number;
  /** A query parameter with `explode: false` or JSON `content`: openapi-backend decodes those. */
  styledQuery: boolean;
}

/**
 * openapi-backend's router, answering the same as the one it replaces, with its work done once
 * per document instead of once per request. openapi-backend parses each request four times (before
 * routing, after it, to validate, and after coercion), and each parse compiled the operation's path
 * template again, cloned the query with lodash and parsed an absent cookie header; a templated path
 * compiled every operation's pattern to route. Together that was about 7% of a quote's CPU
 * (BENCHMARKS.md). The rare inputs this does not handle itself (a cookie header, a raw query string
 * or body, a query parameter with a style to decode) take openapi-backend's own code.
 */
export class CompiledRouter extends OpenAPIRouter {
  private readonly operations: Operation[];
  private readonly templates: CompiledPath[];
  private readonly byOperation = new Map<string, CompiledPath>();

  constructor(options: ConstructorParameters<typeof OpenAPIRouter>[0]) {
    super(options);
    this.operations = super.getOperations();
    // Most specific first; sort is stable, so ties keep the document's order, as lodash's orderBy did.
    this.templates = this.operations.map(compilePath).sort((a, b) => b.literalLength - a.literalLength);
    for (const template of this.templates) this.byOperation.set(operationKey(template.operation), template);
  }

  override getOperations(): Operation[] {
    return this.operations;
  }

  override matchOperation(req: Request): Operation | undefined;
  override matchOperation(req: Request, strict: boolean): Operation;
  override matchOperation(req: Request, strict = false): Operation | undefined {
    const { method, path } = this.normalizeRequest(req);
    if (!this.underApiRoot(path)) return refuse(strict, '404-notFound: no route matches request');
    const relative = this.normalizePath(path);
    const exact = this.byOperation.get(operationKey({ method, path: relative }))?.operation;
    if (exact) return exact;
    const matches = this.templates.filter((template) => template.pattern.test(relative));
    if (matches.length === 0) return refuse(strict, '404-notFound: no route matches request');
    return (
      matches.find((template) => template.operation.method === method)?.operation ??
      refuse(strict, '405-methodNotAllowed: this method is not registered for the route')
    );
  }

  /** openapi-backend's own test (private there): the path is the root or below it, on a segment boundary. */
  private underApiRoot(path: string): boolean {
    if (this.apiRoot === '/') return path.startsWith('/');
    const root = this.apiRoot.replace(/\/$/, '');
    return path === root || path.startsWith(`${root}/`);
  }

  override parseRequest(req: Request, operation?: Operation): ParsedRequest {
    const query = req.query;
    const template = operation && this.byOperation.get(operationKey(operation));
    if (
      typeof query !== 'object' ||
      req.headers.cookie !== undefined ||
      (req.body && typeof req.body !== 'object') ||
      template?.styledQuery
    ) {
      return super.parseRequest(req, operation);
    }
    const normalized = this.normalizeRequest(req);
    const requestBody: unknown = req.body;
    const params = template ? (pathParameters(template, this.normalizePath(normalized.path)) ?? {}) : {};
    return {
      ...normalized,
      params,
      headers: lowerCaseKeys(req.headers),
      query: copyQuery(query),
      cookies: {},
      requestBody,
    };
  }
}

const operationKey = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;

function refuse(strict: boolean, message: string): undefined {
  if (strict) throw new Error(message);
  return undefined;
}

function compilePath(operation: Operation): CompiledPath {
  const names: string[] = [];
  const source = operation.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const styledQuery =
    operation.parameters?.some(
      (p) =>
        !('$ref' in p) && p.in === 'query' && (p.explode === false || p.content?.['application/json'] !== undefined),
    ) ?? false;
  return {
    operation,
    pattern: new RegExp(`^${source}$`),
    names,
    literalLength: operation.path.replace(/\{.*?\}/g, '').length,
    styledQuery,
  };
}

/** bath's reading of a path against a template: each value percent-decoded; a name given twice must agree. */
function pathParameters(template: CompiledPath, path: string): Record<string, string> | undefined {
  const values = template.pattern.exec(path);
  if (!values) return undefined;
  const params: Record<string, string> = {};
  for (const [i, name] of template.names.entries()) {
    const value = decodeURIComponent(present(values[i + 1], `the group of path parameter ${name}`));
    if (name in params && params[name] !== value) return undefined;
    params[name] = value;
  }
  return params;
}

function lowerCaseKeys<T>(record: Record<string, T>): Record<string, T> {
  const copy: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) copy[key.toLowerCase()] = value;
  return copy;
}

/** The parsed query is the caller's to change (coercion writes into it): arrays copied, scalars shared. */
function copyQuery(query: Query): Query {
  const copy: Query = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    const items: unknown[] | undefined = Array.isArray(value) ? value : undefined;
    copy[key] = items ? [...items] : value;
  }
  return copy;
}
