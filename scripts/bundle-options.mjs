// What both bundles (scripts/bundle-cli.mjs, scripts/bundle-action.mjs) share.

/**
 * Our modules reach packages through `createRequire(import.meta.url)` (Ajv's runtime helpers in
 * the generated validators, undici's own modules, package.json for --version). In a bundle, that
 * `require` becomes the bundler's own, so those packages are bundled too and nothing is looked up
 * in node_modules at run time; package.json is replaced by its version alone.
 */
export function inlineRequires(version) {
  return {
    name: 'postsync-inline-requires',
    transform(code) {
      if (!code.includes('createRequire(import.meta.url)')) return null;
      return code
        .replace(/require\((['"])(?:\.\.\/)+package\.json\1\)/g, () => JSON.stringify({ version }))
        .replace(/createRequire\(import\.meta\.url\)\((['"])(?:\.\.\/)+package\.json\1\)/g, () => JSON.stringify({ version }))
        .replace(/^const require = createRequire\(import\.meta\.url\);$/gm, '')
        .replaceAll('createRequire(import.meta.url)(', 'require(');
    },
  };
}

/**
 * rolldown's logs, without the one warning we know to be harmless: gray-matter's JavaScript
 * front-matter engine calls `eval` (`[EVAL] Use of direct eval`), but src/content/parse.ts gives
 * gray-matter engines of its own for every language but YAML, which refuse (`---js` is an
 * error), so that code never runs. Any other eval, and every other warning, is still shown.
 */
export function onLog(level, log, handler) {
  if (log.code === 'EVAL' && isGrayMatterEval(log)) return;
  handler(level, log);
}

/** An EVAL log of gray-matter's engines: in its own module, or in a chunk of ours that holds it (the action bundle re-bundles dist/cli). */
function isGrayMatterEval(log) {
  const id = log.id ?? '';
  if (id.includes('/node_modules/gray-matter/')) return true;
  return /\/dist\/cli\/parse-[\w-]+\.js$/.test(id);
}

/**
 * esprima (~217 KB) is left out: js-yaml's `!!js/function` type requires it inside a try, and
 * reads "cannot be required" as "not installed" (the type then matches nothing). js-yaml is
 * reached only through gray-matter's default engines, which src/content/parse.ts replaces with
 * its own for every front-matter language, so neither js-yaml nor esprima ever runs. The stand-in
 * is CommonJS so that it throws only when required, as a missing package does.
 */
export function withoutEsprima() {
  const id = '\0postsync-no-esprima';
  return {
    name: 'postsync-without-esprima',
    resolveId: (source) => (source === 'esprima' ? id : null),
    load: (loaded) => (loaded === id ? "module.exports = (() => { throw new Error('esprima is not part of the postsync build'); })();\n" : null),
  };
}
