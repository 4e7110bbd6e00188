// The AI provider's shared part (ARCHITECTURE.md "AI"): the openai SDK client, one structured
// JSON call validated with zod, and the classification of its failures. The worker (evaluations,
// job descriptions) and recruiting (the interviewer's follow-ups) each map failures their own way.
export { AiCallError, classifyAiError, type AiFailureKind } from './ai-call-error.js';
export { createOpenAiClient, structuredCompletion, type OpenAiSettings, type StructuredRequest, type StructuredResult } from './structured-completion.js';
