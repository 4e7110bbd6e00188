// Every workflow the worker runs. Workflow code is deterministic and imports activities as types only.
export { ping } from './ping.workflow.js';
export { evaluateInterview } from './evaluate-interview.workflow.js';
