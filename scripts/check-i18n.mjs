#!/usr/bin/env node
/**
 * Fails when a UI message is missing from a catalogue or has no English translation:
 * re-extracts the messages from src/ into a temporary copy and compares.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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

// Extract into a copy of the catalogues, so the check never changes the working tree.
const tmp = join(root, 'reports/i18n-check');
rmSync(tmp, { recursive: true, force: true });
for (const locale of ['de', 'en']) {
  mkdirSync(join(tmp, locale), { recursive: true });
  copyFileSync(join(root, `locales/${locale}/messages.po`), join(tmp, locale, 'messages.po'));
}
const config = join(tmp, 'lingui.config.json');
writeFileSync(
  config,
  JSON.stringify({
    rootDir: root,
    sourceLocale: 'de',
    locales: ['de', 'en'],
    format: 'po',
    catalogs: [{ path: join(tmp, '{locale}/messages'), include: [join(root, 'src')] }],
  }),
);
execFileSync(process.execPath, [join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--config', config], {
  cwd: root,
  stdio: 'pipe',
  env: { ...process.env, NO_COLOR: '1' },
});
const before = { de: entries(join(root, 'locales/de/messages.po')), en: entries(join(root, 'locales/en/messages.po')) };
const after = { de: entries(join(tmp, 'de/messages.po')), en: entries(join(tmp, 'en/messages.po')) };
let problems = 0;
for (const key of after.de.keys()) {
  if (!before.de.has(key)) {
    console.error(`missing from the catalogues (run \`npx lingui extract\`): ${key.split('\u0004')[1]}`);
    problems++;
  }
}
for (const [key, value] of after.en) {
  if (!value) {
    console.error(`no English translation: ${key.split('\u0004')[1]}`);
    problems++;
  }
}
if (problems) {
  console.error(`${problems} translation problem(s)`);
  process.exit(1);
}
console.log(`translations complete: ${after.de.size} messages in de and en`);
