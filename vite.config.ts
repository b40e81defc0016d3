import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { prerender, prerenderedFile, prerenderedPaths } from './scripts/lib/prerender.ts';
import { publicRouteTree } from './scripts/lib/public-route-tree.ts';
import { slimLucide } from './scripts/lib/slim-lucide.ts';
import { hoistImports } from './scripts/lib/hoist-imports.ts';

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
    {
      // The first download's route tree, always from the current routeTree.gen.ts (the checked-in
      // copy is for the type checker; tests/unit/public-route-tree.test.ts keeps it current).
      name: 'hafen:public-route-tree',
      load(id) {
        if (!id.endsWith('/src/routeTree.public.gen.ts')) return null;
        const generated = fileURLToPath(new URL('./src/routeTree.gen.ts', import.meta.url));
        this.addWatchFile(generated);
        return publicRouteTree(readFileSync(generated, 'utf8'));
      },
    },
    // Every lucide icon is made by src/lib/lucide-icon.ts (-1.3 KB gzip in every first download).
    slimLucide(),
    // Every chunk imports all the chunks it needs: a lazy page's chunks come in one round trip
    // without a preload list (see modulePreload below).
    hoistImports(),
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
    // Lazy imports carry no preload lists: the lists of all the lazy pages sat in the route tree's
    // chunk, i.e. in every first download (1.2 KB gzip). hoistImports() makes each chunk name all
    // the chunks it needs, so a lazy page's chunks are found when its own chunk arrives: one round
    // trip more than with a list on a cold cache, none once the service worker has cached every
    // chunk (docs/adr/0043-first-load-budgets.md, "no preload lists"). The
    // HTML keeps its modulepreloads (the entry's chunks; the prerendered pages load them the same
    // way, scripts/lib/prerender.ts).
    // No polyfill: it only makes <link rel=modulepreload> fetch early in browsers without native
    // support (Safari < 17, Firefox < 115); the modules load all the same when imported, and
    // the polyfill sat in the entry of every first download (-0.26 KB gzip).
    modulePreload: { polyfill: false, resolveDependencies: (_f, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      // Feature modules do nothing when loaded but define things (no top-level calls with effects
      // outside the module). Said so, a page that takes one name from a feature's public index.ts
      // gets only the module that defines it, not every module the index names (their top-level
      // lazy()/msg calls would otherwise keep them in the page's chunk).
      treeshake: { moduleSideEffects: (id: string) => !/\/src\/features\//.test(id) },
      output: {
        // Hex file hashes (8 characters, 32 bits) compress better than base64 ones in the import
        // statements of every chunk (-0.08 KB gzip on /start).
        hashCharacters: 'hex',
        codeSplitting: {
          // Every route file's eager part (its options and its lazy page's import) is in
          // the first download; as one chunk they compress together instead of ~50 tiny files.
          // The public route tree, React DOM and the router join them: the first download is one file
          // (and the entry), without the import and export lists between two (-1.8 KB gzip).
          // The account, auth and order pages' route files (the back office's among them) and the
          // whole generated tree are a chunk of their own, loaded on such a page's first visit
          // (src/router-lazy.ts). Groups take their
          // modules' imports too: `routes` comes first so what both need stays in it. useBlocker
          // (the booking's leave guard) stays with the page that uses it.
          groups: [
            {
              name: 'routes',
              test: /\/src\/(routes\/(?!\{-\$locale\}\/(account|auth|news|order)\/).*\.tsx|routeTree\.public\.gen\.ts|router-lazy\.ts)$|\/node_modules\/(react-dom|scheduler|@tanstack\/(store|react-router|router-core))\/(?!.*\/useBlocker\.js$)/,
            },
            { name: 'more-routes', test: /\/src\/(routes\/\{-\$locale\}\/(account|auth|order)\/.*\.tsx|routeTree\.gen\.ts)$/ },
          ],
        },
      },
    },
  },
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // TanStack Store asks for the shim (React < 18); React 19 has useSyncExternalStore, and the
      // package's own non-shim entry uses it (-0.2 KB gzip in every first download).
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
    ],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173 },
});
