/**
 * Prerendering of the public landing pages (Vite plugin, part of every `vite build`).
 *
 * After the browser build, src/prerender.tsx is built for Node into a temporary folder and
 * renders each page of PRERENDERED in German and English; each becomes a copy of the built
 * index.html with that markup inside #root, its <html lang> and <title>:
 *   dist/de/start/index.html, dist/en/start/index.html, dist/start/index.html (unprefixed:
 *   German), likewise service/ and start/booking/.
 * The first paint is then HTML and its inline CSS; the app is requested after that paint, loads
 * the page and replaces the markup in one commit with its own, identical first render.
 * dist/index.html stays the empty shell: every other path (and the service worker's
 * navigations) gets it, as before.
 *
 * Hosts serve <path>/index.html for <path> (scripts/lib/static-server.ts does; see the README
 * for other static hosts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { routePatterns } from './routes.ts';

/** Unprefixed paths of the prerendered pages; each is written unprefixed, /de and /en. */
export const PRERENDERED = ['/start', '/service', '/start/booking'] as const;

/** The paths written for PRERENDERED: /de/start, /en/start, /start, ... */
export function prerenderedPaths(): string[] {
  return PRERENDERED.flatMap((path) => [`/de${path}`, `/en${path}`, path]);
}

/** The file served for a prerendered path, relative to dist/. */
export const prerenderedFile = (path: string) => `${path.slice(1)}/index.html`;

interface Rendered {
  html: string;
  lang: string;
  title: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * A small inline script after #root: when the app will not show what was prerendered, the
 * markup goes before the first paint and the app starts from the empty shell as before.
 * - unprefixed pages were rendered in German; a visitor who chose English gets English;
 * - the booking page with a step in the URL, or with a stored session (the form is
 *   prefilled from the profile), shows something else than the empty first step.
 */
function guardScript(path: string, authKey: string): string {
  const checks: string[] = [];
  if (!/^\/(de|en)(\/|$)/.test(path)) {
    checks.push(`(get('locale')||(document.cookie.match(/(?:^|;\\s*)locale=(de|en)\\b/)||[])[1]||'de')!=='de'`);
  }
  if (path.endsWith('/start/booking')) {
    checks.push(`/[?&]step=/.test(location.search)`, `get(${JSON.stringify(authKey)})!==null`);
  }
  if (!checks.length) return '';
  // Storage may be blocked: then the cookie decides, as in src/lib/i18n.ts.
  const get = `function(k){try{return localStorage.getItem(k)}catch(e){return null}}`;
  return `<script>try{(function(get){if(${checks.join('||')})document.getElementById('root').textContent=''})(${get})}catch(e){}</script>`;
}

/**
 * Starts the app once the HTML has been painted: the entry and its modules are requested then
 * (as modulepreloads, as Vite's own tags would), so they never hold up the first paint. A page
 * opened in the background starts at once.
 */
function appLoader(entry: string, preloads: string[]): string {
  const start = `()=>{for(const href of ${JSON.stringify(preloads)}){const l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=href;document.head.append(l)}import(${JSON.stringify(entry)})}`;
  return `<script type="module">const start=${start};if(document.visibilityState==='hidden')start();else requestAnimationFrame(()=>setTimeout(start))</script>`;
}

/**
 * Puts a rendered page into the built index.html: its markup in #root, <html lang>, <title>,
 * the stylesheet inline (no round trip before the first paint), the app loaded after the paint.
 */
export function pageHtml(template: string, path: string, page: Rendered, authKey: string, readAsset: (href: string) => string): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('prerender: index.html has no empty <div id="root"></div>');
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(template);
  if (!entry) throw new Error('prerender: index.html has no entry <script type="module">');
  const preloads: string[] = [];
  const html = template
    .replace(entry[0], '')
    .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
      preloads.push(href);
      return '';
    })
    .replace(
      /<link rel="stylesheet" crossorigin href="([^"]+)">/g,
      (_tag, href: string) => `<style>${readAsset(href).replace(/<\/style/gi, '<\\/style')}</style>`,
    )
    .replace(/<html lang="[^"]*"/, () => `<html lang="${escapeAttribute(page.lang)}"`)
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${page.title}</title>`)
    // inert until the app has replaced the markup (src/main.tsx): a tap before that would hit a
    // button without its handler.
    .replace(root, () => `<div id="root" inert>${page.html}</div>${guardScript(path, authKey)}`);
  return html.replace('</body>', () => `${appLoader(entry[1]!, preloads)}\n  </body>`);
}

/** The Vite plugin: prerenders after the browser build (not for the Node build it starts itself). */
export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'hafen:prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      sequential: true,
      order: 'pre',
      async handler(error?: Error) {
        if (error || config.build.ssr || config.build.watch) return;
        const outDir = resolve(config.root, config.build.outDir);
        const template = readFileSync(join(outDir, 'index.html'), 'utf8');
        // Inside the output folder (removed before the PWA plugin lists it), so the Node build's
        // imports of packages resolve from the project's node_modules.
        const tmp = join(outDir, '.prerender');
        try {
          await build({
            configFile: config.configFile,
            mode: config.mode,
            logLevel: 'warn',
            build: {
              ssr: resolve(config.root, 'src/prerender.tsx'),
              outDir: tmp,
              emptyOutDir: true,
              copyPublicDir: false,
              minify: false,
              sourcemap: false,
            },
          });
          const entry = join(tmp, 'prerender.js');
          if (!existsSync(entry)) throw new Error(`prerender: ${entry} was not built`);
          const app = (await import(pathToFileURL(entry).href)) as {
            render(path: string): Promise<Rendered>;
            authStorageKey: string;
          };
          for (const path of prerenderedPaths()) {
            const page = await app.render(path);
            const file = join(outDir, prerenderedFile(path));
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(
              file,
              pageHtml(template, path, page, app.authStorageKey, (href) => readFileSync(join(outDir, href), 'utf8')),
            );
          }
          // The app's page paths, for the static server's 404 (scripts/lib/routes.ts).
          const routes = routePatterns(readFileSync(resolve(config.root, 'src/routeTree.gen.ts'), 'utf8'));
          writeFileSync(join(outDir, 'routes.json'), JSON.stringify(routes));
          config.logger.info(`prerendered ${prerenderedPaths().length} pages: ${prerenderedPaths().join(' ')}`);
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      },
    },
  };
}
