/**
 * The project's edge functions take their npm packages from what `npm ci` installed (the stack
 * runs Deno with --node-modules-dir=manual and --cached-only) and deploy unchanged to hosted
 * Supabase, whose bundler resolves the same deno.json from the registry. Both hold only if:
 * - every bare import of a function is mapped in its own deno.json (locally Deno would also
 *   find an unmapped package in the checkout's node_modules, and the deploy would then fail);
 * - every npm: mapping pins the exact version that `npm ci` installed, from a package the root
 *   package.json declares (so `npm ci` keeps installing it, and local and hosted run the same).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const functionsDir = join(root, 'supabase/functions');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const declared = { ...rootPackage.dependencies, ...rootPackage.devDependencies };

const functions = readdirSync(functionsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_') && !d.name.startsWith('.'))
  .map((d) => d.name);

/** A function's own modules and the shared ones (`../_shared/…`) it imports, which its deno.json resolves too. */
function sources(dir: string): string[] {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f))
    .map((f) => join(dir, f));
  for (const file of files) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = spec.startsWith('.') ? resolve(dirname(file), spec) : undefined;
      if (target && existsSync(target) && !files.includes(target)) files.push(target);
    }
  }
  return files;
}

/** Static and dynamic import specifiers of a module's source. */
function specifiers(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(
    /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    found.add(m[1] ?? m[2] ?? m[3]);
  }
  return [...found];
}

describe('edge function dependencies', () => {
  it('finds the functions', () => {
    expect(functions).toContain('send-mail');
  });

  for (const name of functions) {
    it(`${name}: every bare import is mapped in its deno.json to an npm: version that npm ci installed`, () => {
      const configFile = join(functionsDir, name, 'deno.json');
      const imports = existsSync(configFile)
        ? ((JSON.parse(readFileSync(configFile, 'utf8')) as { imports?: Record<string, string> }).imports ?? {})
        : {};
      for (const file of sources(join(functionsDir, name))) {
        for (const spec of specifiers(readFileSync(file, 'utf8'))) {
          if (/^(\.|\/|node:|npm:|jsr:|https?:)/.test(spec)) {
            // A direct npm:/jsr:/https: import would be fetched at run time: map it in deno.json.
            expect(spec, `${file}: import ${spec} through deno.json`).toMatch(/^(\.|\/|node:)/);
            continue;
          }
          const key = Object.keys(imports).find((k) => spec === k || (k.endsWith('/') && spec.startsWith(k)));
          expect(key, `${file}: "${spec}" is not in ${name}/deno.json imports`).toBeDefined();
        }
      }
      for (const [alias, target] of Object.entries(imports)) {
        const m = /^npm:((?:@[^/@]+\/)?[^/@]+)@([^/]+)(\/.*)?$/.exec(target);
        expect(m, `${name}/deno.json: ${alias} -> ${target} is an npm: specifier with a version`).not.toBeNull();
        const [, pkg, version] = m!;
        expect(declared[pkg], `${pkg} must be declared in the root package.json, so that npm ci installs it`).toBeDefined();
        const installed = (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
          .version;
        expect(version, `${name}/deno.json pins ${pkg}@${version}; npm ci installed ${installed}`).toBe(installed);
      }
    });
  }

  it('the check sees imports: a module with an unmapped package is caught', () => {
    expect(
      specifiers(`import a from 'nodemailer';\nimport { b } from "zod";\nconst c = await import('./x.ts');\nimport 'npm:left-pad@1';`),
    ).toEqual(['nodemailer', 'zod', './x.ts', 'npm:left-pad@1']);
  });
});
