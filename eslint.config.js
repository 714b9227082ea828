// ESLint 9 flat config: @eslint/js recommended plus typescript-eslint's type-aware recommended set,
// over src, test, bench, sandbox and the operator console's client in console/ (`npm run lint`).
// Every rule turned off or relaxed below says why; anything not listed here runs as the
// recommended sets define it.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [eslint.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Relaxed: a leading underscore marks a name that is there on purpose and unused: the properties
      // dropped by `const { secret: _s, ...rest } = x`, and the 4th parameter that makes an express
      // function an error handler. Other unused names are still reported.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: ports are async interfaces, and their in-memory and stub implementations (MemoryStore,
      // test doubles, handlers) are `async` without awaiting so that a throw becomes a rejection, as in
      // the Redis adapter. A forgotten `await` is what matters, and no-floating-promises and
      // no-misused-promises (both on) report that.
      '@typescript-eslint/require-await': 'off',
      // Relaxed: URLSearchParams (from @types/node here, as the project has no DOM lib) and Buffer
      // stringify to their text on purpose (a query string, utf-8 output of a child process).
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowAny: true,
          allowBoolean: true,
          allowNullish: true,
          allowNumber: true,
          allowRegExp: true,
          allow: [
            { from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] },
            { from: 'package', package: 'url', name: ['URL', 'URLSearchParams'] },
            { from: 'package', package: 'buffer', name: 'Buffer' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Off in tests only: tests read the JSON answers untyped (supertest's `res.body` and
      // `res.json()` are `any`) and deliberately build malformed inputs (`structuredClone(x) as any`);
      // the expectations are the check on those values, and a wrong shape fails the test.
      // Source, sandbox and bench code keep all of these rules.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // These two compile generated ECMAScript on purpose: one proves an escaped name is a valid
    // identifier, the other evaluates a grammar's semantic tags as a browser would.
    files: ['test/vxml/escaping.unit.test.ts', 'test/vxml/srgs-interpreter.ts'],
    rules: { '@typescript-eslint/no-implied-eval': 'off' },
  },
  {
    // The scope chain walks its parents starting from `this` (`for (let s = this; s; s = s.parent)`);
    // no closure captures the alias, which is what the rule is for.
    files: ['sandbox/scope-chain.ts'],
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
);
