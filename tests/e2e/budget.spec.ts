import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '../helpers/app-test';

const dist = resolve(import.meta.dirname, '../../reports/e2e-dist');

test('initial JavaScript for /start stays within the 150 KB gzip budget (no supabase-js)', async ({ page }) => {
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js') && new URL(response.url()).port === new URL(page.url() || 'http://x').port) scripts.add(path);
  });
  await page.goto('/start');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Willkommen im Hafen Düsseldorf');
  await page.waitForLoadState('networkidle');
  let bytes = 0;
  let supabaseJs = false;
  const sizes: [string, number][] = [];
  for (const path of scripts) {
    const code = readFileSync(resolve(dist, `.${path}`));
    const size = gzipSync(code, { level: 9 }).length;
    sizes.push([path, size]);
    bytes += size;
    if (code.includes('GoTrueClient')) supabaseJs = true;
  }
  const kb = bytes / 1024;
  // The largest files, so a failure says where the bytes went.
  for (const [path, size] of sizes.sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`  ${(size / 1024).toFixed(1)} KB ${path}`);
  test.info().annotations.push({ type: 'initial JS /start (KB gzip)', description: kb.toFixed(1) });
  console.log(`initial JS for /start: ${kb.toFixed(1)} KB gzip in ${scripts.size} files`);
  expect(supabaseJs).toBe(false);
  expect(kb).toBeLessThan(150);
});
