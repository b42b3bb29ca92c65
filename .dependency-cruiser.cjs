// The import rules of ARCHITECTURE.md, checked by test/architecture/import-rules.test.ts (and by
// `npx depcruise src cli`). Data flows one way: a folder of src/ imports only folders of lower
// layers, never one of its own layer or above; src/ never imports cli/.
/** From the bottom up; folders of one layer do not import each other. */
const LAYERS = [
  ['text', 'generated', 'zoned-time', 'github', 'local-server', 'write-guard', 'post-edit'],
  ['api'],
  ['config', 'state'],
  ['templates', 'repeats'],
  ['house-rules'],
  ['content', 'slots'],
  ['media'],
  ['plan'],
  ['apply', 'cache', 'emulator', 'plan-words'],
  ['pipeline'],
  ['calendar'],
  ['watch', 'reports', 'import', 'init', 'actions', 'health'],
];

/**
 * Inside src/emulator the same rule one level down, from the bottom up (src/emulator/README.md).
 * Its entry files (index.ts, emulator.ts) assemble the subfolders and sit above them all.
 */
const EMULATOR_LAYERS = [
  ['fixture', 'protocol'],
  ['store'],
  ['rules'],
  ['seed', 'http'],
  ['endpoints'],
];
const EMULATOR_ENTRY_FILES = ['index.ts', 'emulator.ts'];

/** One rule per folder of `root`: it may not import a folder of its own layer or above (itself excepted). */
function layerRules({ root, layers, where, namePrefix }) {
  const layerOf = (folder) => layers.findIndex((layer) => layer.includes(folder));
  const folders = layers.flat();
  return folders.map((folder) => {
    const notBelow = folders.filter((other) => other !== folder && layerOf(other) >= layerOf(folder));
    return {
      name: `${namePrefix}${folder}-imports-only-lower-layers`,
      comment: `${root}/${folder} is in layer ${layerOf(folder)} of ${where}: it may import only folders of lower layers`,
      severity: 'error',
      from: { path: `^${root}/${folder}/` },
      to: { path: `^${root}/(${notBelow.join('|')})/` },
    };
  });
}

const folders = LAYERS.flat();
const emulatorFolders = EMULATOR_LAYERS.flat();
const emulatorEntry = EMULATOR_ENTRY_FILES.map((file) => file.replace('.', '\\.')).join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules({ root: 'src', layers: LAYERS, where: 'ARCHITECTURE.md', namePrefix: '' }),
    ...layerRules({ root: 'src/emulator', layers: EMULATOR_LAYERS, where: 'src/emulator/README.md', namePrefix: 'emulator-' }),
    {
      name: 'emulator-subfolders-import-no-entry-file',
      comment: 'the entry files of src/emulator assemble its subfolders; a subfolder importing them would close a loop',
      severity: 'error',
      from: { path: '^src/emulator/[^/]+/' },
      to: { path: `^src/emulator/(${emulatorEntry})$` },
    },
    {
      name: 'no-unknown-emulator-folder',
      comment: 'every module of src/emulator sits in a subfolder of a known layer (src/emulator/README.md and this file), its entry files excepted',
      severity: 'error',
      from: { path: `^src/emulator/(?!(${emulatorFolders.join('|')})/|(${emulatorEntry})$)` },
      to: {},
    },
    {
      name: 'src-never-imports-cli',
      comment: 'cli/ renders and owns exit codes; the core reports through values and events',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^cli/' },
    },
    {
      name: 'shared-files-import-no-folder',
      comment: 'src/diagnostics.ts and src/errors.ts are below every folder',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'no-unknown-folder',
      comment: 'a new folder of src/ gets its layer in ARCHITECTURE.md and in this file first',
      severity: 'error',
      from: { path: `^src/(?!(${folders.join('|')})/)[^/]+/` },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'modules that import each other cannot be read, tested or loaded one at a time (a type-only import closing the loop is allowed)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
