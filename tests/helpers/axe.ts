/**
 * Runs axe-core inside the page (injected once per page with addScriptTag): much faster than
 * AxeBuilder's per-frame injection, and the same rules. Returns serious and critical violations.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export async function seriousViolations(page: Page): Promise<string[]> {
  // Expressions as strings: this helper also serves suites compiled without the DOM's types.
  if (!(await page.evaluate("'axe' in window"))) await page.addScriptTag({ path: axePath });
  // Colours are checked as they end: a button just pressed may still be in its colour transition
  // (transition-colors), and axe would read a half-way background. (Endless ones, a spinner, cannot finish.)
  await page.evaluate('document.getAnimations().forEach((a) => { try { a.finish(); } catch { /* endless */ } })');
  const results = (await page.evaluate("axe.run({ resultTypes: ['violations'] })")) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
