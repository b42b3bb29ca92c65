/**
 * Variables in post texts: `{{ campaign.url }}` from `vars:`, `{{ hashtags.coffee }}` from
 * `hashtags:`, the built-ins (`{{ file.dir }}`, `{{ file.name }}`, `{{ key }}`, `{{ date }}`,
 * `{{ account.alias }}`, `{{ account.handle }}`, `{{ account.platform }}`), snippet files
 * `{{> snippets/signature.md }}` (only from the snippets folder) and `\{{` for literal braces.
 * One text's expansion is bounded (depth, includes, length), so no set of files stalls a run.
 *
 * What content reading relies on: `renderTemplate(text, context)` is pure: it takes the
 * text, `config.vars` and `config.hashtags`, the post's `builtInValues(...)` and a synchronous
 * snippet reader (project-relative path → text | refusal | undefined: the renderer refuses by
 * name what lies outside `snippetsFolder` or is hidden, the reader what leaves the folder through
 * a symlink or is git-ignored). It returns the text,
 * the diagnostics (each with file, line and column through `locate`: `verbatimTextLocator` for
 * a body, `fixedTextLocator` for a front-matter value), the names and snippet files used, and
 * `sourceOffset` so that later checks on the rendered text (house rules) can point into the
 * source. Content reading (src/content/post-texts.ts) renders after repeats are expanded, and
 * once per target when `names` holds an `account.*` name (the text then differs per account: a
 * contentOverride); a `next-slot` post has no `{{ date }}` (its time is chosen only when
 * planning). Snippet files count in a post's fingerprint and are in watch's watched paths.
 */
export { builtInValues, MISSING_BUILT_IN, type BuiltInFacts, type BuiltInName, type BuiltIns } from './built-ins.js';
export { renderTemplate, type RenderedText, type TemplateContext } from './render-template.js';
export { snippetPath, type SnippetRefusal } from './snippet-paths.js';
export { holdsTemplate, renderValues } from './render-values.js';
export { fixedTextLocator, verbatimTextLocator, type TextLocator } from './text-locator.js';
