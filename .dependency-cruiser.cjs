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
  ['apply', 'cache', 'emulator'],
  ['pipeline'],
  ['calendar'],
  ['watch', 'reports', 'import', 'init', 'actions', 'health'],
];

const layerOf = (folder) => LAYERS.findIndex((layer) => layer.includes(folder));
const folders = LAYERS.flat();

/** One rule per folder: it may not import a folder of its own layer or above (itself excepted). */
const layerRules = folders.map((folder) => {
  const notBelow = folders.filter((other) => other !== folder && layerOf(other) >= layerOf(folder));
  return {
    name: `${folder}-imports-only-lower-layers`,
    comment: `src/${folder} is in layer ${layerOf(folder)} of ARCHITECTURE.md: it may import only folders of lower layers`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: `^src/(${notBelow.join('|')})/` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
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
