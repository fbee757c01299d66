import path from 'node:path';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { checkPageBudgets } from './check-page-budgets.ts';
import { entryGroup, firstScreenGroup } from './chunk-groups.ts';
import { contractsCatalogs } from './contracts-catalogs.ts';
import { leanImports } from './lean-imports.ts';
import { mantineStylesCheck } from './mantine-styles-check.ts';
import { pageWords } from './page-words.ts';
import { precompress } from './precompress.ts';
import { productionBuilds } from './production-builds.ts';

/** Where the server-rendered landing page's module goes, inside the client's output. */
const landingServerDir = 'server';

/**
 * Puts the server build of the landing page inside the client's output directory, wherever
 * that is (`vite build --outDir …` for tests and benchmarks), so one directory holds
 * everything the API serves and renders.
 */
function landingServerOutDir(): Plugin {
  return {
    name: 'coffer-landing-server-out-dir',
    config(config) {
      const clientOutDir = path.resolve(
        config.root ?? import.meta.dirname,
        config.build?.outDir ?? 'dist',
      );
      return {
        environments: {
          ssr: { build: { outDir: path.join(clientOutDir, landingServerDir) } },
        },
      };
    },
  };
}

// In production the API serves dist/ itself; in development the Vite server forwards /api to
// a locally running API (COFFER_API_PORT, default 3000), so the app talks to one origin.
// `vite build` builds two environments (docs/decisions/010 and 011): the app for the
// browser, and the landing page and the app's server-rendered pages for the API to render
// (dist/server/landing-server.js and app-server.js).
// Lingui's own macro transform is native code for Node 22.19 and later; on the Node 20 this
// project also runs on, Babel compiles the macros (docs/decisions/054): its advice to
// switch is noise here.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    // Lingui's macros (<Trans>, useLingui's t) become message lookups, and a PO catalog
    // imported by lib/i18n.ts becomes compiled messages (docs/decisions/054). A message a
    // catalog lacks is English (lingui.config.ts's fallback), never an id.
    babel({ presets: [linguiTransformerBabelPreset()] }),
    lingui({ failOnCompileError: true }),
    pageWords(path.join(import.meta.dirname, 'src')),
    contractsCatalogs(),
    productionBuilds(),
    precompress(),
    landingServerOutDir(),
    leanImports(),
    mantineStylesCheck(),
  ],
  builder: {
    // The browser's build, then the server's, then every page weighed against its budget.
    async buildApp(builder) {
      const { client, ssr } = builder.environments;
      if (!client || !ssr) throw new Error('vite.config.ts: the client and ssr environments');
      await builder.build(client);
      await builder.build(ssr);
      // The budgets are for what browsers get; a development build (React's warnings
      // included, e.g. to look for hydration mismatches) is far bigger.
      if (builder.config.mode !== 'production') return;
      const root = builder.config.root;
      await checkPageBudgets({
        clientOutDir: path.resolve(root, client.config.build.outDir),
        appServerFile: path.resolve(root, ssr.config.build.outDir, 'app-server.js'),
        logger: builder.config.logger,
      });
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: true,
    // Every browser Coffer supports understands modulepreload; an older one only loads a
    // page's modules as it imports them.
    modulePreload: { polyfill: false },
  },
  environments: {
    client: {
      build: {
        // The server reads it to link the styles and code of the pages it renders.
        manifest: true,
        rolldownOptions: {
          // The app, and the landing page's own small script and styles (landing.html).
          input: {
            main: path.join(import.meta.dirname, 'index.html'),
            landing: path.join(import.meta.dirname, 'landing.html'),
          },
          output: {
            // React, zod, React Router and TanStack Query change less often than the app and
            // every app page needs all four, so they share one long-cached file, which also
            // compresses better than four (the sign-up page's first load is measured in
            // e2e/signup-weight.test.ts). Left to itself, a router took ten of the entry's
            // modules out into chunks of their own (4 KB more per page, docs/decisions/028).
            // Everything else is split where the pages use it: a group for all of Mantine or
            // all of node_modules would make every page download what only the back office
            // needs.
            codeSplitting: {
              groups: [
                // The password-strength dictionaries (1.7 MB) load only once someone types a
                // new password; this group comes first so the vendor group cannot claim them.
                // The browser tests recognise the file by this name (e2e/signup-weight.test.ts).
                {
                  name: 'password-strength-dictionaries',
                  test: /node_modules[\\/]@zxcvbn-ts[\\/]/,
                },
                {
                  name: 'vendor-core',
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|zod|@tanstack)[\\/]/,
                },
                // The signed-in frame's and the dashboard's modules: what visitors' pages also
                // use, and what at least three signed-in pages use (chunk-groups.ts). One and
                // four made the dashboard 2.6 KB lighter or 0.5 KB heavier, the other signed-in
                // pages 4–6 KB heavier or 0.5 KB lighter.
                firstScreenGroup({
                  entryFile: path.join(import.meta.dirname, 'src/main.tsx'),
                  names: { shared: 'first-screen-shared', signedIn: 'signed-in' },
                  minSignedInPages: 3,
                }),
                // What the entry imports statically, which every page runs (Mantine's core, the
                // route table, the API client, the session), in one file (0.2–0.5 KB less on
                // every page than beside main.tsx). chunk-groups.ts says why it no longer
                // counts lazily loaded modules.
                entryGroup({
                  entryFile: path.join(import.meta.dirname, 'src/main.tsx'),
                  name: 'app-common',
                }),
              ],
            },
          },
        },
      },
    },
    ssr: {
      // One self-contained file: the API imports it from the build directory, where no
      // node_modules can be found. React's production build, whatever NODE_ENV the API has.
      resolve: { noExternal: true },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        emptyOutDir: false,
        sourcemap: false,
        copyPublicDir: false,
        rolldownOptions: {
          input: {
            'landing-server': path.join(import.meta.dirname, 'src/landing-server.tsx'),
            'app-server': path.join(import.meta.dirname, 'src/app-server.tsx'),
          },
          output: { entryFileNames: '[name].js' },
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${process.env.COFFER_API_PORT ?? '3000'}` },
    },
  },
});
