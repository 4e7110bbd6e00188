import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ under /console (index.html for every route that is not an asset).
// Nothing is loaded from another origin: fonts, icons and code all ship in the bundle.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // public/ held the old static console; the new one has no static files of its own
  // (the favicon is the gateway's /favicon.ico).
  publicDir: false,
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
});
