import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

/** What a rule found: `from → to` and the rule's name, one line each. */
interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

describe('the import rules of ARCHITECTURE.md (.dependency-cruiser.cjs)', () => {
  it('hold for every module of src/ and cli/', async () => {
    const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
    const result = await cruise(['src', 'cli'], { ...options, validate: true, outputType: 'json' });
    const { summary } = JSON.parse(result.output as string) as { summary: { violations: Violation[]; totalCruised: number } };
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 180_000);
});
