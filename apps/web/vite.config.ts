import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In production the API serves dist/ itself; in development the Vite server forwards /api to
// a locally running API (COFFER_API_PORT, default 3000), so the app talks to one origin.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app, so they sit in their own long-cached
        // files; the app chunk stays small enough to re-download on every release.
        codeSplitting: {
          groups: [
            // The password-strength dictionaries (about 1 MB) load only on pages with a new
            // password field; this group comes first so the vendor group cannot claim them.
            { name: 'password-strength', test: /node_modules[\\/]@zxcvbn-ts[\\/]/ },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
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
