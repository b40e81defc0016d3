import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import createLucideIcon from '@/lib/lucide-icon';
import { stripIconKeys } from '../../scripts/lib/slim-lucide.ts';

/**
 * The build makes lucide's icons with src/lib/lucide-icon.ts from data without `key`s
 * (scripts/lib/slim-lucide.ts). This renders every icon the app imports both ways, with the props
 * the app passes and the rest of lucide's, and expects the same markup.
 */
const root = resolve(import.meta.dirname, '../..');
const esm = resolve(root, 'node_modules/lucide-react/dist/esm');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = resolve(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every icon the app imports from lucide-react, with its module in the package. */
function appIcons() {
  const barrel = readFileSync(resolve(esm, 'lucide-react.mjs'), 'utf8');
  const moduleOf = new Map<string, string>();
  for (const [, names, file] of barrel.matchAll(/^export \{ (.+) \} from '\.\/icons\/([\w-]+\.mjs)';$/gm)) {
    for (const [, name] of names!.matchAll(/default as (\w+)/g)) moduleOf.set(name!, file!);
  }
  const used = new Set<string>();
  for (const file of sourceFiles(resolve(root, 'src'))) {
    for (const [, names] of readFileSync(file, 'utf8').matchAll(/import \{([^}]+)\} from 'lucide-react'/g)) {
      for (const name of names!
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith('type ')))
        used.add(name);
    }
  }
  return [...used].sort().map((name) => {
    const file = moduleOf.get(name);
    if (!file) throw new Error(`${name} is not an icon of lucide-react's barrel`);
    return { name, file: resolve(esm, 'icons', file) };
  });
}

/** The icon data as the build sees it: the module's source after stripIconKeys, its `__iconData` literal evaluated. */
function strippedData(file: string) {
  const stripped = stripIconKeys(readFileSync(file, 'utf8'));
  const literal = /const __iconData = (\{[\s\S]*?\n\});/.exec(stripped)?.[1];
  if (!literal) throw new Error(`no __iconData in ${file}`);
  expect(literal).not.toMatch(/\bkey:/);
  return new Function(`return ${literal}`)() as Parameters<typeof createLucideIcon>[0];
}

const withoutKeys = (data: { node: [string, Record<string, unknown>][] }) => ({
  ...data,
  node: data.node.map(([tag, { key: _key, ...attrs }]) => [tag, attrs]),
});

const props: Record<string, unknown>[] = [
  {},
  { className: 'size-4 shrink-0 text-primary-dark', 'aria-hidden': true },
  { className: 'size-5  lucide extra', strokeWidth: 2.5 },
  { 'aria-label': 'Anker', role: 'img' },
  { title: 'Titel' },
  { size: 16, color: '#0584bc' },
  { width: 20, height: 30, strokeWidth: '1.5' },
  { size: 48, absoluteStrokeWidth: true },
  { nonScalingStroke: true, 'data-testid': 'icon', id: 'x' },
];

describe("lucide's icons from the slim factory (src/lib/lucide-icon.ts)", () => {
  const icons = appIcons();

  it('finds the icons the app imports', () => {
    expect(icons.length).toBeGreaterThan(40);
    expect(icons.map((icon) => icon.name)).toEqual(expect.arrayContaining(['Anchor', 'MapPin', 'House']));
  });

  it.each(icons)('$name: the same markup as lucide-react for every kind of props, from the data without keys', async ({ file }) => {
    const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      default: ComponentType<object>;
      __iconData: { node: [string, Record<string, unknown>][] };
    };
    const data = strippedData(file);
    expect(data).toEqual(withoutKeys(module.__iconData));
    const Slim = createLucideIcon(data) as ComponentType<object>;
    for (const p of props) {
      expect(renderToStaticMarkup(createElement(Slim, p))).toBe(renderToStaticMarkup(createElement(module.default, p)));
    }
    // With children (a <title>): not hidden, the child after the icon's own elements.
    const child = createElement('title', null, 'Hafen');
    expect(renderToStaticMarkup(createElement(Slim, {}, child))).toBe(renderToStaticMarkup(createElement(module.default, {}, child)));
  });

  it('keeps the class names of aliases (house is also "home") and forwards refs', () => {
    const house = readFileSync(resolve(esm, 'icons/house.mjs'), 'utf8');
    expect(house).toContain('aliases: ["home"]');
    const Slim = createLucideIcon(strippedData(resolve(esm, 'icons/house.mjs')));
    expect(renderToStaticMarkup(createElement(Slim))).toContain('class="lucide lucide-house lucide-home"');
    const ref = { current: null };
    expect(createElement(Slim, { ref }).props).toHaveProperty('ref', ref);
  });
});
