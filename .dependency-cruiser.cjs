/**
 * The dependency rules of the developers' guide, checked by `npm run depcruise` (part of
 * `npm run check`). Type-only imports count for every layering rule (a type from the store is still
 * knowledge of the store); only the cycle rule ignores cycles made of type-only imports, as
 * TypeScript erases them.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles (type-only imports are erased, so a cycle through them alone is allowed).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'express-only-in-http',
      severity: 'error',
      comment:
        'Only the HTTP helpers (src/platform/http) and src/app.ts import express; domain code never does.',
      from: { path: '^src/', pathNot: ['^src/platform/http/', '^src/app\\.ts$'] },
      to: { path: '^node_modules/(@types/)?express/' },
    },
    {
      name: 'ioredis-only-in-redis-adapter',
      severity: 'error',
      comment:
        'Only the Redis adapter of the store imports ioredis: its redis-*.ts files and rate-limiter-adapter.',
      from: { path: '^src/', pathNot: '^src/store/(redis-[a-z-]+|rate-limiter-adapter)\\.ts$' },
      to: { path: '^node_modules/ioredis/' },
    },
    {
      name: 'component-only-through-index',
      severity: 'error',
      comment: 'A component folder (src/<x>/) is used from another folder only through its index.ts.',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'wiring-only-through-index',
      severity: 'error',
      comment:
        'The wiring files (src/app.ts, compose.ts, main.ts) use components only through their index.ts.',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'platform-knows-no-store',
      severity: 'error',
      comment: 'The platform code knows no store: it takes ports.',
      from: { path: '^src/platform/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'vxml-not-agent',
      severity: 'error',
      comment: 'The VXML renderer takes its own input type: it imports nothing from the agent.',
      from: { path: '^src/vxml/' },
      to: { path: '^src/agent/' },
    },
    {
      name: 'pure-agent-and-vxml',
      severity: 'error',
      comment: 'The agent and the VXML renderer are pure: no express, no store.',
      from: { path: '^src/(agent|vxml)/' },
      to: { path: ['^src/store/', '^node_modules/(@types/)?express/'] },
    },
    {
      name: 'sandbox-core-runs-in-browsers',
      severity: 'error',
      comment:
        'The VoiceXML interpreter (sandbox/) runs in Node and in the console: its core imports no Node builtin (node:*, fs, ' +
        'readline, vm, crypto…). The Node front ends (call.ts, interactive-input.ts, index.ts, the demo/token scripts) may.',
      from: {
        path: '^sandbox/',
        pathNot: '^sandbox/(call|interactive-input|index|demo-model|mint-token|setup-demo)\\.ts$',
      },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'sandbox-core-not-to-node-front-ends',
      severity: 'error',
      comment:
        'The interpreter core imports none of the Node front ends of sandbox/, nor Node-only libraries.',
      from: {
        path: '^sandbox/',
        pathNot: '^sandbox/(call|interactive-input|index|demo-model|mint-token|setup-demo)\\.ts$',
      },
      to: {
        path: [
          '^sandbox/(call|interactive-input|index|demo-model|mint-token|setup-demo)\\.ts$',
          '^node_modules/(@types/node|jsonwebtoken|ioredis|express)/',
        ],
      },
    },
    {
      name: 'bench-through-public-faces',
      severity: 'error',
      comment:
        "The benchmarks use the service as its callers and wiring do: through a component's index.ts, the wiring files " +
        "(app.ts, compose.ts), and the recognizer's parts for the evaluation tools (src/agent/nlu/index.ts).",
      from: { path: '^bench/' },
      to: {
        path: '^src/',
        pathNot: ['^src/[^/]+/index\\.ts$', '^src/agent/nlu/index\\.ts$', '^src/(app|compose)\\.ts$'],
      },
    },
    {
      name: 'console-sandbox-through-browser-face',
      severity: 'error',
      comment:
        'The console runs the VoiceXML interpreter through its browser face (sandbox/browser.ts), never its inner files.',
      from: { path: '^console/' },
      to: { path: '^sandbox/', pathNot: '^sandbox/browser\\.ts$' },
    },
    {
      name: 'console-not-server',
      severity: 'error',
      comment:
        'The console is a client of the HTTP API: it imports no server code (src/) and no bench or test code.',
      from: { path: '^console/' },
      to: { path: '^(src|bench|test)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (a rule that cannot see a module cannot check it).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
