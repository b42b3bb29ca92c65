import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's audit of the page as it is drawn, run inside it: each critical or serious violation
 * as `rule: the elements it found` (what a test expects to be none). Moderate and minor ones are
 * left to a person reading the report.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const { axe } = globalThis as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } };
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(' ')) }));
  });
  return violations.filter((violation) => violation.impact === 'critical' || violation.impact === 'serious').map((violation) => `${violation.id} (${violation.impact}): ${violation.targets.slice(0, 5).join(', ')}`);
}
