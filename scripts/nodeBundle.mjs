// The esbuild options of the Node bundles (extension host, CLI, workers), shared by esbuild.mjs and the benchmarks.

/**
 * zod's `z.locales` namespace (every language's error messages, unused: English is registered on its own) cannot be
 * tree-shaken from a namespace import, so the bundles get an empty one.
 */
export const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'empty-zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'empty-zod-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

export const nodeBundle = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  plugins: [withoutZodLocales],
};
