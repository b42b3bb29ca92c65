import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { interpolate, shouldRun, type Contexts } from './expressions.js';

/**
 * Runs one job of a GitHub workflow file as the runner would, on this machine: each `run:` step
 * through bash with the runner's environment (GITHUB_ACTIONS, CI, GITHUB_WORKSPACE, a fresh
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY per step), and the postsync action's composite steps in
 * place of its `uses:` line. Checkout and setup-node are what the harness prepared already (the
 * workspace and this Node.js); the action's `npm ci` step is what `npm test` did (dist/ is built).
 */
export const REPO_ROOT = resolve(new URL('../..', import.meta.url).pathname);

export interface RunnerOptions {
  /** The checked-out repository (GITHUB_WORKSPACE). */
  workspace: string;
  /** The `uses:` value that stands for this repository's action.yml. */
  actionRef: string;
  secrets: Record<string, string>;
  github?: Record<string, unknown>;
  /** More of the runner's variables (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH...) for every step. */
  runnerEnv?: Record<string, string>;
}

export interface StepResult {
  name: string;
  id?: string;
  /** `skipped` when its `if:` said so; `provided` for checkout/setup-node. */
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
}

export interface JobResult {
  status: 'success' | 'failure';
  steps: StepResult[];
}

type Step = { name?: string; id?: string; if?: unknown; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; shell?: string; 'working-directory'?: string };

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

export async function runWorkflowJob(workflowFile: string, jobId: string, options: RunnerOptions): Promise<JobResult> {
  const workflow = parse(await readFile(workflowFile, 'utf8')) as { env?: Record<string, unknown>; jobs: Record<string, { env?: Record<string, unknown>; steps: Step[] }> };
  const job = workflow.jobs[jobId];
  if (!job) throw new Error(`no job ${jobId} in ${workflowFile}`);
  const runnerTemp = await mkdtemp(join(tmpdir(), 'postsync-runner-'));
  const github = { workspace: options.workspace, action_path: REPO_ROOT, ref_name: 'main', ...options.github };
  const steps: StepResult[] = [];
  const stepContext: NonNullable<Contexts['steps']> = {};
  let failed = false;
  for (const step of job.steps) {
    const contexts: Contexts = { secrets: options.secrets, github, steps: stepContext, env: {} };
    let result: StepResult;
    if (!shouldRun(step.if, { failed })) result = empty(step, 'skipped');
    else if (step.uses?.startsWith('actions/checkout@') || step.uses?.startsWith('actions/setup-node@')) result = empty(step, 'provided');
    else if (step.uses?.startsWith('actions/upload-artifact@')) result = await uploadArtifact(step, { workspace: options.workspace, contexts });
    else if (step.uses === options.actionRef) result = await runAction(step, { ...options, runnerTemp, github, contexts });
    else if (step.uses !== undefined) throw new Error(`the workflow harness cannot run ${step.uses}`);
    else {
      const env = { ...stringMap(workflow.env, contexts), ...stringMap(job.env, contexts), ...stringMap(step.env, contexts) };
      result = await runScript(step, { script: step.run!, shell: step.shell, cwd: resolve(options.workspace, step['working-directory'] ?? '.'), env: { ...options.runnerEnv, ...env }, runnerTemp, workspace: options.workspace });
    }
    if (step.id) stepContext[step.id] = { outputs: result.outputs, outcome: result.status === 'failure' ? 'failure' : result.status === 'skipped' ? 'skipped' : 'success' };
    failed ||= result.status === 'failure';
    steps.push(result);
  }
  return { status: failed ? 'failure' : 'success', steps };
}

/** The composite action of action.yml, with `with:` as its inputs; its outputs map its steps' outputs. */
async function runAction(step: Step, context: RunnerOptions & { runnerTemp: string; github: Record<string, unknown>; contexts: Contexts }): Promise<StepResult> {
  const action = parse(await readFile(join(REPO_ROOT, 'action.yml'), 'utf8')) as {
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
    if (actionStep.id === 'install') {
      if (!existsSync(join(REPO_ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is not built: run `npm run build` (npm test does)');
      continue;
    }
    if (!shouldRun(actionStep.if, { failed: results.some((r) => r.status === 'failure') })) continue;
    const contexts: Contexts = { inputs, github: context.github, steps: inner };
    const result = await runScript(actionStep, {
      script: actionStep.run!,
      shell: actionStep.shell,
      cwd: resolve(context.workspace, interpolate(actionStep['working-directory'] ?? '.', contexts)),
      env: { ...context.runnerEnv, ...stringMap(actionStep.env, contexts) },
      runnerTemp: context.runnerTemp,
      workspace: context.workspace,
    });
    if (actionStep.id) inner[actionStep.id] = { outputs: result.outputs, outcome: result.status === 'failure' ? 'failure' : 'success' };
    results.push(result);
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, spec]) => [name, interpolate(spec.value, { steps: inner })]));
  const join2 = (pick: (r: StepResult) => string) => results.map(pick).join('');
  return {
    name: step.name ?? step.uses!,
    id: step.id,
    status: results.some((r) => r.status === 'failure') ? 'failure' : 'success',
    stdout: join2((r) => r.stdout),
    stderr: join2((r) => r.stderr),
    outputs,
    summary: join2((r) => r.summary),
    commands: results.flatMap((r) => r.commands),
  };
}

async function runScript(step: Step, run: { script: string; shell?: string; cwd: string; env: Record<string, string>; runnerTemp: string; workspace: string }): Promise<StepResult> {
  const stepDir = await mkdtemp(join(run.runnerTemp, 'step-'));
  const files = { script: join(stepDir, 'script.sh'), output: join(stepDir, 'output'), summary: join(stepDir, 'summary.md') };
  await Promise.all([writeFile(files.script, run.script), writeFile(files.output, ''), writeFile(files.summary, '')]);
  // The runner's shells: `shell: bash` adds --noprofile --norc -o pipefail; the default is bash -e.
  const args = run.shell === 'bash' ? ['--noprofile', '--norc', '-eo', 'pipefail', files.script] : ['-e', files.script];
  if (run.shell !== undefined && run.shell !== 'bash') throw new Error(`the workflow harness only runs bash steps, not ${run.shell}`);
  const env: NodeJS.ProcessEnv = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: run.runnerTemp,
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: run.workspace,
    GITHUB_REF_NAME: 'main',
    RUNNER_TEMP: run.runnerTemp,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    ...run.env,
  };
  const { code, stdout, stderr } = await spawnBash(args, { cwd: run.cwd, env });
  const commands = `${stdout}\n${stderr}`.split('\n').filter((line) => line.startsWith('::'));
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
 * workspace) become the artifact; none is a failure with `if-no-files-found: error`, else a warning.
 */
async function uploadArtifact(step: Step, context: { workspace: string; contexts: Contexts }): Promise<StepResult> {
  const inputs = stringMap(step.with, context.contexts);
  const root = resolve(context.workspace, inputs.path ?? '');
  const files = existsSync(root) ? (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => relative(context.workspace, join(entry.parentPath, entry.name))).sort() : [];
  const missing = files.length === 0 ? `No files were found with the provided path: ${inputs.path}. No artifacts will be uploaded.` : '';
  const failed = missing !== '' && inputs['if-no-files-found'] === 'error';
  return {
    ...empty(step, failed ? 'failure' : 'success'),
    stderr: missing,
    commands: missing === '' || failed ? [] : [`::warning::${missing}`],
    artifact: { name: inputs.name ?? 'artifact', files },
  };
}

function stringMap(values: Record<string, unknown> | undefined, contexts: Contexts): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, interpolate(String(value), contexts)]));
}

function empty(step: Step, status: StepResult['status']): StepResult {
  return { name: step.name ?? step.uses ?? 'step', id: step.id, status, stdout: '', stderr: '', outputs: {}, summary: '', commands: [] };
}
