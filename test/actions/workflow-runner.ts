import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { gitEnv } from '../helpers/git.js';
import { interpolate, interpolateValue, shouldRun, toText, type Contexts } from './expressions.js';

/**
 * Runs the jobs of a GitHub workflow file as the runner would, on this machine: each `run:` step
 * through bash with the runner's environment (GITHUB_ACTIONS, CI, GITHUB_WORKSPACE, a fresh
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_PATH per step), and the postsync action's
 * composite steps in place of its `uses:` line: the action.yml the workflow names (the copy
 * `init` put in the workspace, for a `./` path), with `github.action_path` holding the bundle that
 * `npm run build` wrote (dist/action/postsync.mjs, what action/postsync.mjs is a committed copy
 * of). setup-node is this Node.js. Checkout is what the harness prepared (the workspace), or,
 * given `remote` (a bare repository), a real fetch of `with.ref` (default: `github.sha`) that,
 * as actions/checkout does, leaves the token in .git/config unless `persist-credentials: false`.
 * The github context defaults to a run on main, the default branch, with the token GITHUB_TOKEN.
 */
export const REPO_ROOT = resolve(new URL('../..', import.meta.url).pathname);

export interface RunnerOptions {
  /** The checked-out repository (GITHUB_WORKSPACE). */
  workspace: string;
  /** The `uses:` value that stands for this repository's action.yml. */
  actionRef: string;
  secrets: Record<string, string>;
  github?: Record<string, unknown>;
  /** A bare repository that `actions/checkout` fetches from into `workspace` (else checkout is "provided"). */
  remote?: string;
  matrix?: Record<string, unknown>;
  needs?: Contexts['needs'];
  /** Called before each step of the job runs, with its name (to make something happen meanwhile). */
  beforeStep?: (name: string) => Promise<void>;
  /** More of the runner's variables (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH...) for every step. */
  runnerEnv?: Record<string, string>;
  /**
   * The repository's environments by name: a job that names one (`environment:`) gets its secrets
   * besides the repository's, once its deployment rule (`branches`: the branches that may use
   * it; all when absent) lets the run's branch in; else the job fails before any step, as on
   * GitHub. A job naming an environment not listed gets the repository's secrets alone.
   */
  environments?: Record<string, { secrets: Record<string, string>; branches?: string[] }>;
  /** The workflow run's artifact storage (a folder, one sub-folder per artifact): upload-artifact writes there, download-artifact reads. */
  artifacts?: string;
}

export interface StepResult {
  name: string;
  id?: string;
  /** `skipped` when its `if:` said so; `provided` for checkout/setup-node the harness prepared. */
  status: 'success' | 'failure' | 'skipped' | 'provided';
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** What the step appended to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** Workflow-command lines (`::error …`) from stdout and stderr. */
  commands: string[];
  /** actions/upload-artifact: the artifact's name and the files it would upload (workspace-relative). */
  artifact?: { name: string; files: string[] };
  /** actions/download-artifact: the names of the artifacts it downloaded. */
  downloaded?: string[];
}

export interface JobResult {
  status: 'success' | 'failure';
  steps: StepResult[];
  /** The job's `outputs:`, evaluated once its steps ran. */
  outputs: Record<string, string>;
  /** Why GitHub would not start the job: its environment's deployment rule refused the branch. */
  refused?: string;
}

type Step = { name?: string; id?: string; if?: unknown; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; shell?: string; 'working-directory'?: string; 'continue-on-error'?: boolean };
type Job = { if?: unknown; environment?: string | { name: string }; needs?: string | string[]; env?: Record<string, unknown>; outputs?: Record<string, string>; strategy?: { matrix?: Record<string, unknown> }; steps: Step[] };
type Workflow = { env?: Record<string, unknown>; jobs: Record<string, Job> };

/** Parses `name<<DELIM … DELIM` blocks and `name=value` lines, as the runner does; later values win. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const end = lines.indexOf(delimiter, i + 1);
      if (end < 0) throw new Error(`unterminated output ${name}`);
      outputs[name] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** What runs a job's steps: the runner's temp folder and the folders steps added to the PATH. */
interface JobRun {
  runnerTemp: string;
  github: Record<string, unknown>;
  path: string[];
}

/** The token of the harness's runs (`github.token`) unless a test gives its own. */
export const HARNESS_TOKEN = 'ghs_harness_job_token_51c0';

/** The github context of a run: on main, the default branch, unless `given` says otherwise. */
function githubContext(given: Record<string, unknown> | undefined): Record<string, unknown> {
  const event = { repository: { default_branch: 'main' }, ...(given?.event as Record<string, unknown> | undefined) };
  return { ref_name: 'main', ref: 'refs/heads/main', token: HARNESS_TOKEN, ...given, event };
}

/** A folder that stands for this action's checkout: `action/` holds the freshly built bundle's files. */
async function actionCheckout(runnerTemp: string): Promise<string> {
  const built = join(REPO_ROOT, 'dist/action');
  if (!existsSync(join(built, 'postsync.mjs'))) throw new Error('dist/action/postsync.mjs is not built: run `npm run build` (npm test does)');
  const root = join(runnerTemp, 'postsync-action');
  await mkdir(join(root, 'action'), { recursive: true });
  for (const file of await readdir(built)) await symlink(join(built, file), join(root, 'action', file));
  return root;
}

export async function runWorkflowJob(workflowFile: string, jobId: string, options: RunnerOptions): Promise<JobResult> {
  const workflow = parse(await readFile(workflowFile, 'utf8')) as Workflow;
  const job = workflow.jobs[jobId];
  if (!job) throw new Error(`no job ${jobId} in ${workflowFile}`);
  const runnerTemp = await mkdtemp(join(tmpdir(), 'postsync-runner-'));
  // A runner's workspace is there before the first step, checkout or not.
  await mkdir(options.workspace, { recursive: true });
  const github = { workspace: options.workspace, action_path: await actionCheckout(runnerTemp), ...githubContext(options.github) };
  const run: JobRun = { runnerTemp, github, path: [] };
  const environment = jobEnvironment(job, options, github);
  if ('refused' in environment) return { status: 'failure', steps: [], outputs: {}, refused: environment.refused };
  const secrets = { ...options.secrets, ...environment.secrets };
  const steps: StepResult[] = [];
  const stepContext: NonNullable<Contexts['steps']> = {};
  let failed = false;
  for (const step of job.steps) {
    const contexts: Contexts = { secrets, github, steps: stepContext, env: {}, matrix: options.matrix, needs: options.needs, runner: { temp: runnerTemp } };
    await options.beforeStep?.(step.name ?? step.uses ?? step.id ?? 'step');
    let result: StepResult;
    if (!shouldRun(step.if, { failed }, contexts)) result = empty(step, 'skipped');
    else if (step.uses?.startsWith('actions/checkout@')) result = options.remote ? await checkout(step, options, contexts) : empty(step, 'provided');
    else if (step.uses?.startsWith('actions/setup-node@')) result = empty(step, 'provided');
    else if (step.uses?.startsWith('actions/upload-artifact@')) result = await uploadArtifact(step, { workspace: options.workspace, contexts, artifacts: options.artifacts });
    else if (step.uses?.startsWith('actions/download-artifact@')) result = await downloadArtifact(step, { workspace: options.workspace, contexts, artifacts: options.artifacts });
    else if (step.uses === options.actionRef) result = await runAction(step, { ...options, run, contexts });
    else if (step.uses !== undefined) throw new Error(`the workflow harness cannot run ${step.uses}`);
    else {
      const env = { ...stringMap(workflow.env, contexts), ...stringMap(job.env, contexts), ...stringMap(step.env, contexts) };
      const cwd = resolve(options.workspace, interpolate(step['working-directory'] ?? '.', contexts));
      result = await runScript(step, { script: step.run!, shell: step.shell, cwd, env: { ...options.runnerEnv, ...env }, run, workspace: options.workspace });
    }
    const outcome = result.status === 'failure' ? 'failure' : result.status === 'skipped' ? 'skipped' : 'success';
    if (step.id) stepContext[step.id] = { outputs: result.outputs, outcome };
    failed ||= result.status === 'failure' && step['continue-on-error'] !== true;
    steps.push(result);
  }
  const outputs = Object.fromEntries(Object.entries(job.outputs ?? {}).map(([name, value]) => [name, interpolate(value, { steps: stepContext, matrix: options.matrix })]));
  return { status: failed ? 'failure' : 'success', steps, outputs };
}

/** The secrets a job's environment adds, or why its deployment rule refused the run's branch. */
function jobEnvironment(job: Job, options: RunnerOptions, github: Record<string, unknown>): { secrets: Record<string, string> } | { refused: string } {
  if (job.environment === undefined) return { secrets: {} };
  const name = typeof job.environment === 'string' ? job.environment : job.environment.name;
  const environment = options.environments?.[name];
  if (environment === undefined) return { secrets: {} };
  const branch = toText(github.ref_name);
  if (environment.branches !== undefined && !environment.branches.includes(branch)) return { refused: `Branch "${branch}" is not allowed to deploy to ${name} due to environment protection rules.` };
  return { secrets: environment.secrets };
}

/** One run of a job of a whole workflow: which matrix entry it had and how it went. */
export interface WorkflowJobRun {
  job: string;
  matrix?: Record<string, unknown>;
  result: JobResult | null;
}

/**
 * Runs every job of a workflow in `needs` order, as one workflow run: a job whose `if:` is false
 * (or whose needs did not succeed, unless its `if:` asks for `always()`) is skipped (`result`
 * null). A `strategy.matrix` runs the job once per entry: one after the other in the one
 * workspace by default; with `matrixAtOnce`, every entry at the same time, each in a workspace of
 * its own (a sub-folder of `workspace`), as GitHub runs a matrix on runners of its own. The run
 * keeps its artifacts in a folder of its own: what a job uploads, a later job downloads.
 */
export async function runWorkflow(workflowFile: string, options: Omit<RunnerOptions, 'matrix' | 'needs' | 'artifacts'> & { matrixAtOnce?: boolean }): Promise<WorkflowJobRun[]> {
  const workflow = parse(await readFile(workflowFile, 'utf8')) as Workflow;
  const runs: WorkflowJobRun[] = [];
  const done: NonNullable<Contexts['needs']> = {};
  const pending = Object.keys(workflow.jobs);
  const artifacts = await mkdtemp(join(tmpdir(), 'postsync-artifacts-'));
  while (pending.length > 0) {
    const index = pending.findIndex((id) => [workflow.jobs[id]!.needs ?? []].flat().every((need) => need in done));
    if (index < 0) throw new Error(`cannot order the jobs ${pending.join(', ')} by their needs`);
    const [id] = pending.splice(index, 1) as [string];
    const job = workflow.jobs[id]!;
    const needs = Object.fromEntries([job.needs ?? []].flat().map((need) => [need, done[need]!]));
    const contexts: Contexts = { github: githubContext(options.github), secrets: options.secrets, needs };
    const needsMet = Object.values(needs).every((need) => need.result === 'success');
    if (!shouldRun(job.if, { failed: !needsMet }, contexts)) {
      runs.push({ job: id, result: null });
      done[id] = { outputs: {}, result: 'skipped' };
      continue;
    }
    const entries = matrixEntries(job.strategy?.matrix, contexts);
    const runEntry = async (matrix: Record<string, unknown> | undefined, n: number): Promise<WorkflowJobRun> => {
      const workspace = options.matrixAtOnce ? join(options.workspace, `${id}-${n + 1}`) : options.workspace;
      const result = await runWorkflowJob(workflowFile, id, { ...options, workspace, artifacts, needs, ...(matrix ? { matrix } : {}) });
      return { job: id, ...(matrix ? { matrix } : {}), result };
    };
    const jobRuns: WorkflowJobRun[] = [];
    if (options.matrixAtOnce) jobRuns.push(...(await Promise.all(entries.map(runEntry))));
    else for (const [n, matrix] of entries.entries()) jobRuns.push(await runEntry(matrix, n));
    runs.push(...jobRuns);
    const results = jobRuns.map((run) => run.result!);
    done[id] = { outputs: results.at(-1)?.outputs ?? {}, result: results.every((result) => result.status === 'success') ? 'success' : 'failure' };
  }
  return runs;
}

/** The matrix entries of a job: one list-valued key (`calendar: ${{ fromJSON(…) }}`), or no matrix. */
function matrixEntries(matrix: Record<string, unknown> | undefined, contexts: Contexts): (Record<string, unknown> | undefined)[] {
  if (matrix === undefined) return [undefined];
  const keys = Object.keys(matrix);
  if (keys.length !== 1) throw new Error(`the workflow harness runs matrices of one key, not ${keys.join(', ')}`);
  const values = interpolateValue(matrix[keys[0]!], contexts);
  if (!Array.isArray(values)) throw new Error(`matrix ${keys[0]} is not a list: ${toText(values)}`);
  return values.map((value) => ({ [keys[0]!]: value }));
}

/** actions/checkout: fetches `with.ref` (a branch, or by default the triggering `github.sha`) from the remote. */
async function checkout(step: Step, options: RunnerOptions & { remote?: string }, contexts: Contexts): Promise<StepResult> {
  const ref = interpolate(String(step.with?.ref ?? ''), contexts) || toText(contexts.github?.sha);
  if (ref === '') throw new Error('checkout needs with.ref or github.sha');
  const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: options.workspace, env: gitEnv() });
  await mkdir(options.workspace, { recursive: true });
  if (!existsSync(join(options.workspace, '.git'))) {
    await git('init', '-q', '--initial-branch=main', '.');
    await git('remote', 'add', 'origin', options.remote!);
  }
  await git('fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
  const branch = await git('rev-parse', '--verify', '-q', `refs/remotes/origin/${ref}`).then(() => true, () => false);
  if (branch) await git('checkout', '-q', '--force', '-B', ref, `refs/remotes/origin/${ref}`);
  else await git('checkout', '-q', '--force', '--detach', ref);
  const head = (await git('rev-parse', 'HEAD')).stdout.trim();
  if (interpolate(String(step.with?.['persist-credentials'] ?? 'true'), contexts) !== 'false') {
    const token = interpolate(String(step.with?.token ?? '${{ github.token }}'), contexts);
    await git('config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
  }
  return { ...empty(step, 'provided'), status: 'success', stdout: `checked out ${ref} at ${head}\n` };
}

/** The composite action of action.yml, with `with:` as its inputs; its outputs map its steps' outputs. */
async function runAction(step: Step, context: RunnerOptions & { run: JobRun; contexts: Contexts }): Promise<StepResult> {
  const actionDir = step.uses!.startsWith('./') ? resolve(context.workspace, step.uses!) : REPO_ROOT;
  const action = parse(await readFile(join(actionDir, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string; required?: boolean }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: Step[] };
  };
  if (action.runs.using !== 'composite') throw new Error('action.yml is expected to be a composite action');
  const given = stringMap(step.with, context.contexts);
  const unknown = Object.keys(given).filter((name) => !(name in action.inputs));
  if (unknown.length > 0) throw new Error(`the workflow passes inputs action.yml does not declare: ${unknown.join(', ')}`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']));
  const inner: NonNullable<Contexts['steps']> = {};
  const results: StepResult[] = [];
  for (const actionStep of action.runs.steps) {
    const contexts: Contexts = { inputs, github: context.run.github, steps: inner };
    if (!shouldRun(actionStep.if, { failed: results.some((r) => r.status === 'failure') }, contexts)) continue;
    const result = await runScript(actionStep, {
      script: actionStep.run!,
      shell: actionStep.shell,
      cwd: resolve(context.workspace, interpolate(actionStep['working-directory'] ?? '.', contexts)),
      env: { ...context.runnerEnv, ...stringMap(actionStep.env, contexts) },
      run: context.run,
      workspace: context.workspace,
    });
    if (actionStep.id) inner[actionStep.id] = { outputs: result.outputs, outcome: result.status === 'failure' ? 'failure' : 'success' };
    results.push(result);
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, spec]) => [name, interpolate(spec.value, { steps: inner })]));
  const joined = (pick: (r: StepResult) => string) => results.map(pick).join('');
  return {
    name: step.name ?? step.uses!,
    id: step.id,
    status: results.some((r) => r.status === 'failure') ? 'failure' : 'success',
    stdout: joined((r) => r.stdout),
    stderr: joined((r) => r.stderr),
    outputs,
    summary: joined((r) => r.summary),
    commands: results.flatMap((r) => r.commands),
  };
}

async function runScript(step: Step, script: { script: string; shell?: string; cwd: string; env: Record<string, string>; run: JobRun; workspace: string }): Promise<StepResult> {
  const { run } = script;
  const stepDir = await mkdtemp(join(run.runnerTemp, 'step-'));
  const files = { script: join(stepDir, 'script.sh'), output: join(stepDir, 'output'), summary: join(stepDir, 'summary.md'), path: join(stepDir, 'path') };
  await Promise.all([writeFile(files.script, script.script), writeFile(files.output, ''), writeFile(files.summary, ''), writeFile(files.path, '')]);
  // The runner's shells: `shell: bash` adds --noprofile --norc -o pipefail; the default is bash -e.
  const args = script.shell === 'bash' ? ['--noprofile', '--norc', '-eo', 'pipefail', files.script] : ['-e', files.script];
  if (script.shell !== undefined && script.shell !== 'bash') throw new Error(`the workflow harness only runs bash steps, not ${script.shell}`);
  const github = run.github;
  const env: NodeJS.ProcessEnv = {
    PATH: [...run.path, dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
    HOME: run.runnerTemp,
    GIT_CONFIG_NOSYSTEM: '1',
    // A runner has no terminal: git fails at once where it would ask for a password.
    GIT_TERMINAL_PROMPT: '0',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: script.workspace,
    GITHUB_REF: toText(github.ref),
    GITHUB_REF_NAME: toText(github.ref_name),
    GITHUB_SHA: toText(github.sha),
    GITHUB_REPOSITORY: toText(github.repository),
    GITHUB_RUN_ID: toText(github.run_id),
    GITHUB_SERVER_URL: toText(github.server_url) || 'https://github.com',
    GITHUB_API_URL: toText(github.api_url) || 'https://api.github.com',
    RUNNER_TEMP: run.runnerTemp,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_PATH: files.path,
    ...script.env,
  };
  const { code, stdout, stderr } = await spawnBash(args, { cwd: script.cwd, env });
  const commands = `${stdout}\n${stderr}`.split('\n').filter((line) => line.startsWith('::'));
  // Folders a step adds to GITHUB_PATH come first in the PATH of every later step.
  run.path.unshift(...(await readFile(files.path, 'utf8')).split('\n').filter(Boolean).reverse());
  return {
    name: step.name ?? step.id ?? 'run',
    id: step.id,
    status: code === 0 ? 'success' : 'failure',
    stdout,
    stderr,
    outputs: parseOutputs(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
    commands,
  };
}

function spawnBash(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/**
 * actions/upload-artifact as far as a workflow can tell: the files under `path` (relative to the
 * workspace) become the artifact, kept in the run's storage (when the run has one) with their
 * paths below `path`; none is a failure with `if-no-files-found: error`, a warning with `warn`
 * (the default), nothing with `ignore`.
 */
async function uploadArtifact(step: Step, context: { workspace: string; contexts: Contexts; artifacts?: string | undefined }): Promise<StepResult> {
  const inputs = stringMap(step.with, context.contexts);
  const root = resolve(context.workspace, inputs.path ?? '');
  const found = existsSync(root) ? (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort() : [];
  const files = found.map((file) => relative(context.workspace, file));
  const ifNone = inputs['if-no-files-found'] ?? 'warn';
  const missing = found.length === 0 && ifNone !== 'ignore' ? `No files were found with the provided path: ${inputs.path}. No artifacts will be uploaded.` : '';
  const failed = missing !== '' && ifNone === 'error';
  const name = inputs.name ?? 'artifact';
  if (context.artifacts !== undefined && found.length > 0) {
    if (existsSync(join(context.artifacts, name))) throw new Error(`an artifact named ${name} was uploaded twice in one run (GitHub refuses that)`);
    for (const file of found) await cp(file, join(context.artifacts, name, relative(root, file)));
  }
  return {
    ...empty(step, failed ? 'failure' : 'success'),
    stderr: missing,
    commands: missing === '' || failed ? [] : [`::warning::${missing}`],
    artifact: { name, files },
  };
}

/**
 * actions/download-artifact by `pattern` (`*` for any characters, as minimatch reads a name
 * without slashes): each artifact of the run that matches goes to `path/<its name>/`; none is no
 * failure.
 */
async function downloadArtifact(step: Step, context: { workspace: string; contexts: Contexts; artifacts?: string | undefined }): Promise<StepResult> {
  const inputs = stringMap(step.with, context.contexts);
  if (context.artifacts === undefined) throw new Error('download-artifact runs only in a whole workflow run (runWorkflow)');
  if (inputs.pattern === undefined || inputs.name !== undefined || inputs['merge-multiple'] === 'true') throw new Error('the workflow harness downloads artifacts by pattern, each into its own folder');
  const matcher = new RegExp(`^${inputs.pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  const names = (await readdir(context.artifacts)).filter((name) => matcher.test(name)).sort();
  const target = resolve(context.workspace, inputs.path ?? '');
  for (const name of names) await cp(join(context.artifacts, name), join(target, name), { recursive: true });
  return { ...empty(step, 'success'), stdout: `Found ${names.length} artifact(s)\n`, downloaded: names };
}

function stringMap(values: Record<string, unknown> | undefined, contexts: Contexts): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, interpolate(String(value), contexts)]));
}

function empty(step: Step, status: StepResult['status']): StepResult {
  return { name: step.name ?? step.uses ?? 'step', id: step.id, status, stdout: '', stderr: '', outputs: {}, summary: '', commands: [] };
}
