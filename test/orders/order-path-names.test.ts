import { readFileSync } from 'node:fs';

/** Issue 37: one path parameter name for the order identifier, with the same four accepted forms everywhere. */
interface Parameter {
  name?: string;
  description?: string;
  $ref?: string;
}
const contract = JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Parameter[] } | Parameter[] | undefined>>;
  components: { parameters: Record<string, Parameter> };
};
const resolved = (parameter: Parameter): Parameter =>
  parameter.$ref ? (contract.components.parameters[parameter.$ref.split('/').pop() ?? ''] ?? parameter) : parameter;

const orderPaths = Object.keys(contract.paths).filter(
  (path) => path.startsWith('/api/external/v1/orders/') && !path.startsWith('/api/external/v1/orders/groups/'),
);

describe('the order identifier in paths', () => {
  it('every operation on one order names it {orderRef}, and no path uses another name for it', () => {
    expect(orderPaths.length).toBeGreaterThan(5);
    for (const path of orderPaths) expect(path).toMatch(/^\/api\/external\/v1\/orders\/\{orderRef\}(\/|$)/);
    expect(JSON.stringify(contract.paths)).not.toContain('orderIdentifier');
  });

  it('GET and PATCH /orders/{orderRef} document the same four accepted forms as the payment and promo paths', () => {
    const orderRefOf = (path: string, method: string) => {
      const operation = contract.paths[path]?.[method] as { parameters?: Parameter[] } | undefined;
      const shared = contract.paths[path]?.parameters as Parameter[] | undefined;
      return [...(operation?.parameters ?? []), ...(shared ?? [])]
        .map(resolved)
        .find((parameter) => parameter.name === 'orderRef')?.description;
    };
    const detail = orderRefOf('/api/external/v1/orders/{orderRef}', 'get');
    expect(detail).toEqual(expect.stringContaining('order number'));
    expect(orderRefOf('/api/external/v1/orders/{orderRef}', 'patch')).toBe(detail);
    expect(orderRefOf('/api/external/v1/orders/{orderRef}/pay', 'post')).toBe(detail);
    expect(
      orderRefOf('/api/external/v1/orders/{orderRef}/promo', 'put') ??
        orderRefOf('/api/external/v1/orders/{orderRef}/promo', 'post'),
    ).toBe(detail);
  });
});
