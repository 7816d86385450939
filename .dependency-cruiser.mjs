// The import rules of the repository, checked by `npm test` (scripts/test.ts) before the
// unit tests: `npx depcruise --config .dependency-cruiser.mjs contract/src server/src web/src tools scripts bench e2e`.
//
// Layers, lowest first: contract → server db → infra → http (with config.ts, context.ts) → modules →
// app.ts / main.ts. A layer imports only layers below it; modules/index.ts hands the lower layers what
// they need of the modules (the access check's resolvers). Tests may drive the whole app, so the layer
// rules leave *.test.ts out; the cycle rule does not.
// See docs/architecture.md ("Layers").

const tests = '\\.test\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: split the shared part into a file both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-stands-alone',
      comment: 'The contract is imported by the server and the console; it imports neither.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(server|web|tools|scripts|bench|e2e)/' },
    },
    {
      name: 'lower-layers-no-modules',
      comment: 'contract, db, infra, http, config and context never import a module (server/src/modules).',
      severity: 'error',
      from: { path: '^(contract/|server/src/(db|infra|http)/|server/src/(config|context)\\.ts$)', pathNot: tests },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'db-below-infra-and-http',
      comment: 'The database layer imports neither infra nor http (their errors, hooks, stores).',
      severity: 'error',
      from: { path: '^server/src/db/', pathNot: tests },
      to: { path: '^server/src/(infra|http)/' },
    },
    {
      name: 'infra-below-http',
      comment: 'Shared stores (sessions, counters, caches, Redis) know nothing of HTTP.',
      severity: 'error',
      from: { path: '^server/src/infra/', pathNot: tests },
      to: { path: '^server/src/http/' },
    },
    {
      name: 'gateway-no-order',
      comment: 'The payment gateways (modules/pay/gateways) never import the order module: the order module asks the registry for a gateway.',
      severity: 'error',
      from: { path: '^server/src/modules/pay/gateways/', pathNot: tests },
      to: { path: '^server/src/modules/pay/orders/' },
    },
    {
      name: 'gateways-through-the-registry',
      comment: 'The order module, 对账 and main.ts reach a payment gateway through the registry (modules/pay/gateways/registry.ts, its lifecycle hooks), never one gateway\'s folder: a new gateway touches none of them (docs/adding-a-gateway.md).',
      severity: 'error',
      from: { path: '^server/src/(modules/pay/(orders|reconcile)/|main\\.ts$)', pathNot: tests },
      to: { path: '^server/src/modules/pay/gateways/[^/]+/' },
    },
    {
      name: 'areas-through-front-doors',
      comment: 'An area (server/src/modules/<wing>/<area>/) is entered through its index.ts: what other code may use. Tests and test support (server/src/test) may reach further in.',
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+/[^/]+)/', pathNot: tests },
      to: { path: '^server/src/modules/[^/]+/[^/]+/', pathNot: '^server/src/modules/$1/|^server/src/modules/[^/]+/[^/]+/index\\.ts$' },
    },
    {
      name: 'outside-through-front-doors',
      comment: 'Code outside the areas (app.ts, main.ts, modules/index.ts, bench, tools) enters an area through its index.ts too.',
      severity: 'error',
      from: { pathNot: `${tests}|^server/src/modules/[^/]+/[^/]+/|^server/src/test/` },
      to: { path: '^server/src/modules/[^/]+/[^/]+/', pathNot: '^server/src/modules/[^/]+/[^/]+/index\\.ts$' },
    },
    {
      name: 'web-api-no-components',
      comment: 'The console API layer (web/src/api) never imports a component or a screen; they import the API.',
      severity: 'error',
      from: { path: '^web/src/api/' },
      to: { path: '^web/src/(components|pages)/' },
    },
    {
      name: 'web-app-is-the-shell',
      comment: 'web/src/app is the shell (router, layout, guards): it imports the screens; nothing imports it. Shared services live in web/src/shared.',
      severity: 'error',
      from: { path: '^web/src/(api|components|shared|pages)/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'web-shared-below-components',
      comment: 'web/src/shared (toast, session, icons, useCurrentUser, useServerAction) sits below components and screens: it imports neither.',
      severity: 'error',
      from: { path: '^web/src/shared/' },
      to: { path: '^web/src/(components|pages)/' },
    },
    {
      name: 'web-screens-apart',
      comment: 'A screen (web/src/pages/<area>/<screen>/) never imports another screen: what two screens use goes to web/src/components.',
      severity: 'error',
      from: { path: '^web/src/pages/([^/]+/[^/]+)/' },
      to: { path: '^web/src/pages/[^/]+/[^/]+/', pathNot: '^web/src/pages/$1/' },
    },
    {
      name: 'resolvable',
      comment: 'Every relative import resolves (so no rule above is skipped for an import it cannot follow).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // type-only imports count: a cycle of types is still a cycle of the design
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
