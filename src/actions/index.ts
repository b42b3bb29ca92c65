export { reportToGitHubActions, reportApplyOutcome, type ActionsReport, type ActionsSink } from './report.js';
export { gitHubActionsEnvironment, type GitHubActionsEnvironment, type Environment } from './environment.js';
export { annotation, diagnosticAnnotation, escapeData, escapeProperty, workspacePath, type AnnotationLevel, type AnnotationProperties, type WorkflowCommand } from './workflow-commands.js';
export { appendStepOutputs, formatOutputs, planOutputs, diagnosticOutputs, type StepOutputs } from './outputs.js';
export { validateSummaryMarkdown, applyOutcomeMarkdown } from './summary.js';
