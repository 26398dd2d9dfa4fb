// `npm run postman`: the bundled contract -> a Postman collection (openapi-to-postmanv2) plus a
// sandbox environment, in postman/. The collection takes a token first and sends it on every
// other request; each request checks that the status it got is one the contract documents for it.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { convert } = require('openapi-to-postmanv2');

const document = JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8'));
const documented = new Map();
for (const [path, operations] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    if (operation.operationId) documented.set(operation.summary, { path, method: method.toUpperCase(), statuses: Object.keys(operation.responses).map(Number), operation });
  }
}

const converted = await new Promise((resolve, reject) =>
  convert(
    { type: 'json', data: document },
    // Request bodies and parameters from the documented examples; one folder per tag; requests named by summary.
    { folderStrategy: 'Tags', parametersResolution: 'Example', requestNameSource: 'Fallback', enableOptionalParameters: false, includeAuthInfoInExample: false },
    (error, result) => (error ? reject(error) : result.result ? resolve(result.output[0].data) : reject(new Error(result.reason))),
  ),
);

const collection = converted;
collection.info.name = document.info.title;
collection.info.description = 'Generated from generated/openapi.json by `npm run postman`; do not edit by hand. Select the "Sandbox" environment, then run the collection.';
collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] };
collection.variable = [];

// Dates in examples age; the quote and the order need a departure in the future.
collection.event = [
  {
    listen: 'prerequest',
    script: {
      type: 'text/javascript',
      exec: [
        'const ahead = new Date(Date.now() + (5 * 60 + 45) * 60000 + 30 * 86400000);',
        "pm.variables.set('departureDate', ahead.toISOString().slice(0, 10));",
      ],
    },
  },
];

function firstJsonExample(operation) {
  const first = Object.values(operation.requestBody?.content?.['application/json']?.examples ?? {})[0];
  if (!first) return undefined;
  return first.$ref ? document.components.examples[first.$ref.split('/').pop()].value : first.value;
}

function visit(items) {
  for (const item of items) {
    if (item.item) visit(item.item);
    if (!item.request) continue;
    const entry = documented.get(item.name);
    if (!entry) continue;
    const tests = [
      `pm.test('answers a status the contract documents for ${entry.operation.operationId}', () => {`,
      `  pm.expect(${JSON.stringify(entry.statuses)}).to.include(pm.response.code);`,
      '});',
    ];
    if (entry.operation.operationId === 'issueToken') {
      item.request.auth = { type: 'noauth' };
      tests.push(
        "pm.test('issues a token', () => pm.expect(pm.response.code).to.equal(200));",
        "if (pm.response.code === 200) pm.environment.set('accessToken', pm.response.json().data.accessToken);",
      );
    }
    // The converter fills bodies from the schema (`<string>`); send the first documented example instead.
    const example = firstJsonExample(entry.operation);
    if (example !== undefined && item.request.body?.mode === 'raw') item.request.body.raw = JSON.stringify(example, null, 2);
    if (item.request.body?.raw) item.request.body.raw = item.request.body.raw.replace(/"(startDate|departureDate)": "\d{4}-\d{2}-\d{2}"/g, '"$1": "{{departureDate}}"');
    if (entry.operation.operationId === 'issueToken') item.request.body.raw = JSON.stringify({ clientId: '{{clientId}}', clientSecret: '{{clientSecret}}' }, null, 2);
    item.event = [{ listen: 'test', script: { type: 'text/javascript', exec: tests } }];
  }
}
visit(collection.item);
// The token request runs first, whatever the tag order.
collection.item.sort((a, b) => (a.name === 'Authentication' ? -1 : b.name === 'Authentication' ? 1 : 0));

const environment = {
  name: 'Sandbox',
  values: [
    { key: 'baseUrl', value: 'http://localhost:3000', type: 'default', enabled: true },
    { key: 'clientId', value: 'demo-everest-trails', type: 'default', enabled: true },
    { key: 'clientSecret', value: 'sandbox-secret-everest-trails', type: 'secret', enabled: true },
    { key: 'accessToken', value: '', type: 'secret', enabled: true },
  ],
  _postman_variable_scope: 'environment',
};

fs.mkdirSync('postman', { recursive: true });
fs.writeFileSync('postman/collection.json', `${JSON.stringify(collection, null, 2)}\n`);
fs.writeFileSync('postman/sandbox.postman_environment.json', `${JSON.stringify(environment, null, 2)}\n`);
const count = (items) => items.reduce((n, item) => n + (item.item ? count(item.item) : 1), 0);
console.log(`postman/collection.json (${count(collection.item)} requests) and postman/sandbox.postman_environment.json written`);
