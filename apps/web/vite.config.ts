import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

// In production the API serves dist/ itself; in development the Vite server forwards /api to
// a locally running API (COFFER_API_PORT, default 3000), so the app talks to one origin.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // React changes less often than the app, so it sits in its own long-cached file.
        // Everything else is split where the pages use it: a group for all of Mantine or
        // all of node_modules would make the landing page download what only the
        // dashboard's chart or the back office needs.
        codeSplitting: {
          groups: [
            // The password-strength dictionaries (about 1 MB) load only on pages with a new
            // password field; this group comes first so the vendor group cannot claim them.
            { name: 'password-strength', test: /node_modules[\\/]@zxcvbn-ts[\\/]/ },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
          ],
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
