/**
 * Import cycles, type-only ones included: ESLint's import-x/no-cycle skips `import type`, and a cycle
 * through types still ties two modules into one (docs/architecture.md). Boundaries stay in eslint.config.js.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules import each other in a cycle (type-only imports count too): move the shared piece down.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', 'src/server/db/migrations'] },
    // Count `import type` edges: the cycle rule is about design, not what survives compilation.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
