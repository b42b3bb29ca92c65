import { readdir, readFile } from 'node:fs/promises';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

const EMULATOR = new URL('../../src/emulator/', import.meta.url);

/** The layer table of src/emulator/README.md: its `| layer | folder/ | what it holds |` rows. */
function readmeLayers(readme: string): Record<string, number> {
  return Object.fromEntries([...readme.matchAll(/^\| (\d+) \| `([a-z-]+)\/` \|/gm)].map((m) => [m[2] as string, Number(m[1])]));
}

/** The layer of each emulator folder in .dependency-cruiser.cjs, as its rule states it. */
async function ruleLayers(folders: string[]): Promise<Record<string, number | undefined>> {
  const { ruleSet } = (await extractDepcruiseOptions('./.dependency-cruiser.cjs')) as { ruleSet: { forbidden: { name: string; comment?: string }[] } };
  return Object.fromEntries(
    folders.map((folder) => {
      const rule = ruleSet.forbidden.find((r) => r.name === `emulator-${folder}-imports-only-lower-layers`);
      const layer = /in layer (\d+)/.exec(rule?.comment ?? '')?.[1];
      return [folder, layer === undefined ? undefined : Number(layer)];
    }),
  );
}

describe('src/emulator/README.md', () => {
  it('gives every subfolder of src/emulator the layer .dependency-cruiser.cjs gives it', async () => {
    const readme = await readFile(new URL('README.md', EMULATOR), 'utf8');
    const folders = (await readdir(EMULATOR, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(readmeLayers(readme)).toEqual(await ruleLayers(folders));
  });
});
