/**
 * The import rules of the modular monolith (docs/decisions.md, "One folder per capability"),
 * checked by `npm run lint:imports` in CI. test/process/import-rules.test.ts proves each rule
 * fails on a deliberately wrong import.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ENTITY = ['^src/modules/[^/]+/entities/', '^src/modules/[^/]+/providers/[^/]+/entities/'];
/** The ORM's two-way relations, the one kind of import circle allowed: each entity names the other. */
const TWO_WAY_RELATIONS = [
  '^src/modules/orders/entities/order\\.ts$', // Order.travelCompanies <-> OrderTravelCompany.order
  '^src/modules/orders/entities/order-travel-company\\.ts$',
  '^src/modules/payments/entities/payment-attempt\\.ts$', // PaymentAttempt.orders <-> PaymentAttemptOrder.attempt
  '^src/modules/payments/entities/payment-attempt-order\\.ts$',
  '^src/modules/travellers/entities/traveller\\.ts$', // Traveller.avatarDocument (and its passport, signature) <-> Document.traveller
  '^src/modules/documents/entities/document\\.ts$',
];
const SETTINGS = ['^src/modules/[^/]+/settings\\.ts$', '^src/modules/[^/]+/providers/[^/]+/settings\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-module',
      comment: 'src/kernel/ is what every module uses and none owns: it imports no module, no CLI and no composition file (app, server, config ...).',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: ['^src/modules/', '^src/cli/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'module-through-its-index',
      comment: "Another module is used only through its index.ts, or its entities/ (the tables it owns, which the ORM's relations and queries name).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', ...ENTITY] },
    },
    {
      name: 'refunds-call-back-no-caller',
      comment: 'refunds is called by orders (the cancellation) and payments (late captures, reversals) inside their transactions: it reads their tables (entities/) but never imports their use cases, so it cannot call back into its caller (decision record 0075).',
      severity: 'error',
      from: { path: '^src/modules/refunds/' },
      to: { path: ['^src/modules/orders/', '^src/modules/payments/'], pathNot: ENTITY },
    },
    {
      name: 'composition-through-index',
      comment: 'Boot, composition and the CLI use a module only through its index.ts (config.ts also reads module settings.ts files).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/', '^src/kernel/', '^src/config\\.ts$'] },
      to: { path: '^src/modules/[^/]+/.', pathNot: ['^src/modules/[^/]+/index\\.ts$', ...ENTITY] },
    },
    {
      name: 'config-reads-module-settings',
      comment: "config.ts composes the core settings with each module's own settings.ts, and reads nothing else of a module.",
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/modules/', pathNot: SETTINGS },
    },
    {
      name: 'settings-stand-alone',
      comment: "A module's settings.ts reads the environment with the kernel's reader: it imports only the kernel and its own providers' settings, so config.ts pulls in no use case.",
      severity: 'error',
      from: { path: SETTINGS },
      to: { path: '^src/', pathNot: ['^src/kernel/', ...SETTINGS] },
    },
    {
      name: 'no-circular',
      comment: "No import circle across files, except the ORM's two-way relations listed in TWO_WAY_RELATIONS (a circle through any other file is still reported from that file).",
      severity: 'error',
      from: { path: '^src/', pathNot: TWO_WAY_RELATIONS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
