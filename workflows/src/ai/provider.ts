import type OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/activity';
import type { z } from 'zod';
import { classifyAiError, createOpenAiClient, structuredCompletion, type StructuredResult } from '@hireloop/ai';
import { EvaluationResult, JobDescriptionResult, ModelEvaluation, type Competency, type Rubric } from '@hireloop/contracts';
import { dataBlock, dataDelimiters, dataRule } from '@hireloop/platform/prompt-data';
import { offlineRubricEvaluation } from './offline-rubric.js';
import { LEGACY_PROMPT_VERSION, RUBRIC_PROMPT_VERSION, rubricPrompt } from './rubric-prompt.js';

/** An interview scheduled before rubrics: evaluated as before, from its questions and answers. */
export interface EvaluationInput {
  interviewId: string;
  title: string;
  candidateName: string;
  position: { title: string; description: string | null };
  answers: { question: string; answer: string }[];
}

/** One evaluation version against a rubric: the rubric, the questions asked, the transcript. */
export interface RubricEvaluationInput {
  interviewId: string;
  version: number;
  title: string;
  position: { title: string };
  rubric: Pick<Rubric, 'version'> & { competencies: (Omit<Competency, 'description'> & { description?: string | null | undefined })[] };
  questions: { id: string; text: string; competencies: string[] }[];
  turns: { id: string; role: 'interviewer' | 'candidate'; kind: string; questionId: string; text: string }[];
}

/** The AI work the platform does (ARCHITECTURE.md "AI"). Structured output, validated with zod. */
export interface JobDescriptionInput {
  title: string;
  seniority?: string;
  location?: string;
  skills?: string[];
  tone: 'neutral' | 'friendly' | 'formal';
  language: string;
}

export interface AiProvider {
  readonly model: string;
  /** The version of the rubric instructions (or of the offline scoring) this provider uses. */
  readonly rubricPromptVersion: string;
  readonly legacyPromptVersion: string;
  evaluateInterview(input: EvaluationInput): Promise<EvaluationResult>;
  /** Per-competency scores, rationales and quotes; recruiting verifies them and computes the rest. */
  scoreAgainstRubric(input: RubricEvaluationInput): Promise<ModelEvaluation>;
  writeJobDescription(input: JobDescriptionInput): Promise<JobDescriptionResult>;
}

export interface AiConfig {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  timeoutMs: number;
}

/** OpenAI (or any OpenAI-compatible server) when a key is configured, else the offline provider. */
export function createAiProvider(config: AiConfig): AiProvider {
  return config.apiKey ? new OpenAiProvider({ ...config, apiKey: config.apiKey }) : new OfflineProvider();
}

/**
 * Deterministic, clearly labelled (`model: "offline"`) results so every flow works with no
 * network and no key: scores follow how fully each question was answered.
 */
export class OfflineProvider implements AiProvider {
  readonly model = 'offline';
  readonly rubricPromptVersion = 'offline-rubric-1';
  readonly legacyPromptVersion = 'offline-legacy-1';

  async scoreAgainstRubric(input: RubricEvaluationInput): Promise<ModelEvaluation> {
    return offlineRubricEvaluation(input);
  }

  async evaluateInterview(input: EvaluationInput): Promise<EvaluationResult> {
    const words = input.answers.map((a) => a.answer.trim().split(/\s+/).filter(Boolean).length);
    const fullness = words.map((w) => Math.min(1, w / 60));
    const mean = fullness.reduce((a, b) => a + b, 0) / Math.max(1, fullness.length);
    const overallScore = Math.round(20 + mean * 70);
    const recommendation = overallScore >= 80 ? 'strong_yes' : overallScore >= 65 ? 'yes' : overallScore >= 50 ? 'mixed' : overallScore >= 35 ? 'no' : 'strong_no';
    const answered = input.answers.filter((_, i) => (words[i] ?? 0) >= 30).map((a) => a.question);
    const thin = input.answers.filter((_, i) => (words[i] ?? 0) < 30).map((a) => a.question);
    return {
      overallScore,
      recommendation,
      summary: `Offline evaluation (no AI provider configured) of ${input.candidateName} for ${input.position.title}: ${input.answers.length} answers, ${words.reduce((a, b) => a + b, 0)} words in all.`,
      strengths: answered.slice(0, 5).map((q) => `Detailed answer to: ${q}`),
      concerns: thin.slice(0, 5).map((q) => `Brief answer to: ${q}`),
      competencies: input.answers.slice(0, 5).map((a, i) => ({
        name: `Answer ${i + 1}`,
        score: Math.max(1, Math.min(5, Math.round((fullness[i] ?? 0) * 4) + 1)),
        rationale: `${words[i] ?? 0} words in answer to "${a.question.slice(0, 120)}".`,
      })),
    };
  }

  async writeJobDescription(input: JobDescriptionInput): Promise<JobDescriptionResult> {
    const skills = input.skills?.length ? input.skills : ['clear written communication', 'ownership of results'];
    const title = offlineTitle(input.title, input.seniority);
    const summary = `Offline draft (no AI provider configured): we are hiring a ${title}${input.location ? ` in ${input.location}` : ''}.`;
    const responsibilities = [`Own the outcomes expected of a ${input.title}.`, 'Work closely with your team and stakeholders.', 'Improve how the team works, one step at a time.'];
    const requirements = skills.map((s) => `Experience with ${s}.`);
    const niceToHave = ['Experience in a fast-growing company.'];
    const list = (items: string[]) => items.map((i) => `- ${i}`).join('\n');
    const markdown = `# ${title}\n\n${summary}\n\n## Responsibilities\n${list(responsibilities)}\n\n## Requirements\n${list(requirements)}\n\n## Nice to have\n${list(niceToHave)}\n`;
    return { title, summary, responsibilities, requirements, niceToHave, markdown };
  }
}

/** A result title must fit; the longest accepted title and seniority together do not. */
const TITLE_MAX = 200;

/**
 * The offline draft's title: the seniority before the title, unless the title already says it
 * ("Senior Backend Engineer" with `senior`), or the two together would not fit the result's title.
 */
export function offlineTitle(title: string, seniority: string | undefined): string {
  if (!seniority || namesWord(title, seniority)) return title;
  const both = `${seniority} ${title}`;
  return [...both].length <= TITLE_MAX ? both : title;
}

/** Whether `text` has `word` as a whole word, in any case ("Senior Engineer" has senior; "Middleware" has no mid). */
function namesWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

const SYSTEM_PROMPT = `You are an experienced, fair interviewer. Evaluate the candidate's written interview answers
for the position. Judge only the answers' content, never names or other personal characteristics.
Reply with JSON only, matching the given schema: overallScore 0-100, recommendation one of
strong_no|no|mixed|yes|strong_yes, a short summary, strengths and concerns (short sentences),
competencies (name, score 1-5, rationale).`;

/**
 * The openai SDK against OpenAI or any compatible server (OPENAI_BASE_URL). Temporal owns the
 * retries (maxRetries: 0): 429 and 5xx are thrown as retryable; 400/401/403/404 are permanent.
 */
export class OpenAiProvider implements AiProvider {
  readonly model: string;
  readonly rubricPromptVersion = RUBRIC_PROMPT_VERSION;
  readonly legacyPromptVersion = LEGACY_PROMPT_VERSION;
  private readonly client: OpenAI;

  constructor(config: AiConfig & { apiKey: string }) {
    this.model = config.model;
    this.client = createOpenAiClient({ apiKey: config.apiKey, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs });
  }

  async evaluateInterview(input: EvaluationInput): Promise<EvaluationResult> {
    const d = dataDelimiters(input.interviewId);
    return this.structured(
      EvaluationResult,
      'interview_evaluation',
      `Position: ${input.position.title}\n${input.position.description ?? ''}\n\nInterview: ${input.title}\n\n` +
        dataBlock(d, input.answers.map((a, i) => `Question ${i + 1}: ${a.question}\nAnswer: ${a.answer}`).join('\n\n')),
      `${SYSTEM_PROMPT}\n${dataRule(d)}`,
    );
  }

  async scoreAgainstRubric(input: RubricEvaluationInput): Promise<ModelEvaluation> {
    const prompt = rubricPrompt(input);
    return this.structured(ModelEvaluation, 'rubric_evaluation', prompt.user, prompt.system);
  }

  async writeJobDescription(input: JobDescriptionInput): Promise<JobDescriptionResult> {
    return this.structured(
      JobDescriptionResult,
      'job_description',
      JSON.stringify(input),
      `You write clear, inclusive job descriptions. Write in the language ${input.language} with a ${input.tone} tone.
Reply with JSON only, matching the schema: title, summary, responsibilities, requirements, niceToHave, and the
whole description as markdown. Avoid gendered language and needless requirements.`,
    );
  }

  /**
   * One chat completion with a JSON-schema response format, parsed and validated. A reply that is
   * not JSON or misses the schema is asked for once more; a second invalid reply is a permanent
   * failure with the code `ai_invalid_output` (PRODUCT.md §12: one retry, then failed).
   */
  async structured<T extends z.ZodType>(schema: T, name: string, user: string, system: string): Promise<z.infer<T>> {
    const first = await this.attempt(schema, name, user, system);
    if (first.ok) return first.value;
    const second = await this.attempt(schema, name, user, system);
    if (second.ok) return second.value;
    throw ApplicationFailure.nonRetryable(`Twice no usable AI reply. ${second.reason}`, 'ai_invalid_output');
  }

  private async attempt<T extends z.ZodType>(schema: T, name: string, user: string, system: string): Promise<StructuredResult<z.infer<T>>> {
    try {
      return await structuredCompletion(this.client, { model: this.model, schema, name, system, user });
    } catch (err) {
      throw temporalFailureOf(err);
    }
  }
}

/**
 * An AI call's failure as Temporal sees it: permanent for a request the provider refuses;
 * retryable for rate limits, outages and timeouts.
 */
export function temporalFailureOf(err: unknown): Error {
  const failure = classifyAiError(err);
  if (failure.kind === 'rejected') return ApplicationFailure.nonRetryable(failure.message, 'ai_request_rejected');
  return ApplicationFailure.retryable(failure.message, 'ai_unavailable');
}
