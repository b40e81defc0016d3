import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { prerender, prerenderedFile, prerenderedPaths } from './scripts/lib/prerender.ts';

// Plugin order as measured in ../shared/TOOLING.md. The Babel include also matches ids with a
// query string (TanStack's ?tsr-split= chunks), or the Lingui macro runs uncompiled.
export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // /start is the landing page: its component ships with the entry instead of one more
      // round trip after the router starts (it is small; the budget test watches the total).
      codeSplittingOptions: { splitBehavior: ({ routeId }) => (routeId === '/{-$locale}/start/' ? [] : undefined) },
    }),
    react(),
    babel({ include: /\/src\/.*\.[jt]sx?(?:$|\?)/, plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    tailwindcss(),
    // /start, /service and /start/booking as HTML (scripts/lib/prerender.ts), before the PWA
    // plugin lists the files to precache.
    prerender(),
    // /sw.js precaches the shell (HTML, JS, CSS, icons, catalogues) so a reload on a bad
    // connection still opens the app; water levels and weather fall back to their last answer.
    VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      filename: 'sw.js',
      manifest: {
        id: '/',
        name: 'Hafen Düsseldorf',
        short_name: 'Hafen',
        description: 'Liegeplätze im Hafen Düsseldorf buchen – Berth booking in Düsseldorf harbour',
        lang: 'de',
        start_url: '/start',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#0584bc',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/logo.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Navigations are answered with index.html (the app); the prerendered pages are for a
        // first visit from the network only, never served from this cache after a deploy.
        globIgnores: prerenderedPaths().map(prerenderedFile),
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/(auth|rest|realtime|storage|functions)\/v1\//],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.hostname === 'www.pegelonline.wsv.de' || url.hostname === 'api.brightsky.dev',
            handler: 'NetworkFirst',
            options: { cacheName: 'service-data', networkTimeoutSeconds: 8, expiration: { maxEntries: 20, maxAgeSeconds: 24 * 60 * 60 } },
          },
        ],
      },
    }),
  ],
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every route file's eager part (options, and the preload list of its lazy page) is in
          // the first download; as one chunk they compress together instead of ~50 tiny files.
          groups: [{ name: 'routes', test: /\/src\/routes\/.*\.tsx$/ }],
        },
      },
    },
  },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173 },
});
