#!/usr/bin/env node
/**
 * Fails when a UI message is missing from a catalogue or has no English translation:
 * re-extracts the messages from src/ into a temporary copy of every catalogue and compares.
 * Also refuses public code importing an area's features (see lingui.config.ts).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { getConfig } from '@lingui/conf';

const root = resolve(import.meta.dirname, '..');

function entries(file) {
  const text = readFileSync(file, 'utf8');
  const map = new Map();
  const re = /(?:^msgctxt "((?:[^"\\]|\\.)*)"\n)?^msgid "((?:[^"\\]|\\.)*)"\n((?:^".*"\n)*)^msgstr "((?:[^"\\]|\\.)*)"\n((?:^".*"\n)*)/gm;
  for (const m of text.matchAll(re)) {
    const id = m[2] + (m[3] ?? '').replace(/^"|"\n$/gm, '');
    if (id === '') continue;
    const str = m[4] + (m[5] ?? '').replace(/^"|"\n$/gm, '');
    map.set(`${m[1] ?? ''}\u0004${id}`, str);
  }
  return map;
}

const config = getConfig({ cwd: root, configPath: join(root, 'lingui.config.ts') });
const catalogues = config.catalogs.map((catalog) => ({
  ...catalog,
  name: basename(catalog.path),
  file: (locale) => `${catalog.path.replace('{locale}', locale)}.po`,
}));

// Extract into a copy of the catalogues, so the check never changes the working tree.
const tmp = join(root, 'reports/i18n-check');
rmSync(tmp, { recursive: true, force: true });
for (const locale of ['de', 'en']) {
  mkdirSync(join(tmp, locale), { recursive: true });
  for (const catalogue of catalogues) copyFileSync(catalogue.file(locale), join(tmp, locale, `${catalogue.name}.po`));
}
const tmpConfig = join(tmp, 'lingui.config.json');
writeFileSync(
  tmpConfig,
  JSON.stringify({
    rootDir: root,
    sourceLocale: 'de',
    locales: ['de', 'en'],
    format: 'po',
    catalogs: catalogues.map(({ name, include, exclude }) => ({ path: join(tmp, `{locale}/${name}`), include, exclude })),
  }),
);
execFileSync(process.execPath, [join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--config', tmpConfig], {
  cwd: root,
  stdio: 'pipe',
  env: { ...process.env, NO_COLOR: '1' },
});

let problems = 0;
let total = 0;
for (const catalogue of catalogues) {
  const before = entries(catalogue.file('de'));
  const after = { de: entries(join(tmp, `de/${catalogue.name}.po`)), en: entries(join(tmp, `en/${catalogue.name}.po`)) };
  total += after.de.size;
  for (const key of after.de.keys()) {
    if (!before.has(key)) {
      console.error(`missing from ${catalogue.name}.po (run \`npx lingui extract\`): ${key.split('\u0004')[1]}`);
      problems++;
    }
  }
  for (const [key, value] of after.en) {
    if (!value) {
      console.error(`no English translation in en/${catalogue.name}.po: ${key.split('\u0004')[1]}`);
      problems++;
    }
  }
}

// A page under /account/admin loads every catalogue into one table: a German text shared by two
// catalogues must have the same English text in both, or whichever loads last wins.
const english = new Map();
for (const catalogue of catalogues) {
  for (const [key, value] of entries(catalogue.file('en'))) {
    const seen = english.get(key);
    if (seen && seen.value !== value) {
      console.error(`"${key.split('\u0004')[1]}" is "${seen.value}" in ${seen.name}.po but "${value}" in ${catalogue.name}.po`);
      problems++;
    } else if (!seen) english.set(key, { value, name: catalogue.name });
  }
}

// Every message must be in some catalogue (a new folder outside all includes would be lost).
const known = new Set(catalogues.flatMap((catalogue) => [...entries(join(tmp, `de/${catalogue.name}.po`)).keys()]));
const everything = join(tmp, 'everything');
writeFileSync(
  tmpConfig,
  JSON.stringify({
    rootDir: root,
    sourceLocale: 'de',
    locales: ['de'],
    format: 'po',
    catalogs: [{ path: join(everything, '{locale}'), include: [join(root, 'src')] }],
  }),
);
execFileSync(process.execPath, [join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--config', tmpConfig], {
  cwd: root,
  stdio: 'pipe',
  env: { ...process.env, NO_COLOR: '1' },
});
for (const key of entries(join(everything, 'de.po')).keys()) {
  if (!known.has(key)) {
    console.error(`in no catalogue (add its folder to lingui.config.ts): ${key.split('\u0004')[1]}`);
    problems++;
  }
}

// src/lib/i18n.ts loads the catalogues in levels: `messages` everywhere, `booking` on every page
// but /start, `guest` on every page but /start and /start/booking, `account` under /auth and
// /account, `harbour` and `admin` under /account/admin. A file may import code of its own level
// or below, never above: those messages would be missing. (A type-only import brings no code.)
const LEVEL = { messages: 0, booking: 1, guest: 2, account: 3, harbour: 4, admin: 4 };
const sources = readdirSync(join(root, 'src'), { recursive: true }).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.gen.ts'));
const levelOf = (file) => {
  // The most specific include that holds the file decides (areas are carved out of broader folders).
  let best = { level: undefined, length: -1 };
  for (const catalogue of catalogues) {
    for (const include of catalogue.include) {
      const dir = relative(join(root, 'src'), include);
      const excluded = (catalogue.exclude ?? []).some((pattern) => {
        const ex = relative(join(root, 'src'), pattern.replace(/\/\*\*$/, ''));
        return file === ex || file.startsWith(`${ex}/`) || file.replace(/\.tsx?$/, '') === ex.replace(/\.tsx?$/, '');
      });
      const match = file === dir || file.startsWith(`${dir}/`) || dir === '';
      if (match && !excluded && dir.length > best.length) best = { level: LEVEL[catalogue.name], length: dir.length };
    }
  }
  return best.level;
};
const sourceSet = new Set(sources);
const resolveImport = (target) =>
  [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`, target].find((file) => sourceSet.has(file)) ?? target;
for (const file of sources) {
  const level = levelOf(file);
  const source = readFileSync(join(root, 'src', file), 'utf8');
  for (const [, target] of source.replace(/^import type [^;]*;/gm, '').matchAll(/from '@\/([^']+)'/g)) {
    const targetLevel = levelOf(resolveImport(target));
    if (level !== undefined && targetLevel !== undefined && targetLevel > level) {
      console.error(`src/${file} imports @/${target}, whose messages are not loaded where it shows`);
      problems++;
    }
  }
}

if (problems) {
  console.error(`${problems} translation problem(s)`);
  process.exit(1);
}
console.log(`translations complete: ${total} messages in ${catalogues.length} catalogues, de and en`);
