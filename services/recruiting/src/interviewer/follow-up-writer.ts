import { z } from 'zod';
import { createOpenAiClient, structuredCompletion, type StructuredResult } from '@hireloop/ai';
import type { InterviewLanguage } from '@hireloop/contracts';
import { FOLLOW_UP_PROMPT_VERSION, followUpPrompt, type FollowUpRequest } from './follow-up-prompt.js';

/** What the model answers: one follow-up question, or null to move on. */
export const FollowUpReply = z.object({ followUp: z.string().max(2000).nullable() });
export type FollowUpReply = z.infer<typeof FollowUpReply>;

/**
 * Writes a follow-up (or none). A failed call throws an AiCallError (@hireloop/ai); an unusable
 * reply is `{ok: false}`. `signal` ends the call at the interviewer's deadline.
 */
export interface FollowUpWriter {
  readonly model: string;
  readonly promptVersion: string;
  write(request: FollowUpRequest, signal: AbortSignal): Promise<StructuredResult<FollowUpReply>>;
}

export interface FollowUpWriterConfig {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  model: string;
  timeoutMs: number;
}

/** The openai SDK when a key is configured (ARCHITECTURE.md "AI"), else the offline writer. */
export function createFollowUpWriter(config: FollowUpWriterConfig): FollowUpWriter {
  return config.apiKey ? new OpenAiFollowUpWriter({ ...config, apiKey: config.apiKey }) : new OfflineFollowUpWriter();
}

export class OpenAiFollowUpWriter implements FollowUpWriter {
  readonly model: string;
  readonly promptVersion = FOLLOW_UP_PROMPT_VERSION;
  private readonly client: ReturnType<typeof createOpenAiClient>;

  constructor(config: FollowUpWriterConfig & { apiKey: string }) {
    this.model = config.model;
    this.client = createOpenAiClient({ apiKey: config.apiKey, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs });
  }

  write(request: FollowUpRequest, signal: AbortSignal) {
    const prompt = followUpPrompt(request);
    return structuredCompletion(this.client, { model: this.model, schema: FollowUpReply, name: 'interview_follow_up', system: prompt.system, user: prompt.user, signal });
  }
}

/** An answer with fewer words than this is thin: the offline writer asks a follow-up. */
export const THIN_ANSWER_WORDS = 12;

const OFFLINE_FOLLOW_UPS: Record<InterviewLanguage, readonly string[]> = {
  en: [
    'Could you give a concrete example: what was the situation, what did you do yourself, and what was the result?',
    'Looking back on that example, what would you do differently next time, and why?',
    'How did you know that it worked: what did you measure or observe?',
  ],
  de: [
    'Können Sie ein konkretes Beispiel nennen: Wie war die Situation, was haben Sie selbst getan, und was war das Ergebnis?',
    'Wenn Sie auf dieses Beispiel zurückblicken: Was würden Sie beim nächsten Mal anders machen, und warum?',
    'Woran haben Sie gemerkt, dass es funktioniert hat: Was haben Sie gemessen oder beobachtet?',
  ],
};

/**
 * Deterministic, no network (model "offline"): the same transcript always gives the same
 * follow-ups (CLARIFICATIONS 2026-11-26). A thin last answer (fewer than THIN_ANSWER_WORDS
 * words, such as "Yes.") gets a fixed question asking for concrete evidence, in the interview's
 * language; a fuller one gets none.
 */
export class OfflineFollowUpWriter implements FollowUpWriter {
  readonly model = 'offline';
  readonly promptVersion = 'offline-follow-up-1';

  async write(request: FollowUpRequest): Promise<StructuredResult<FollowUpReply>> {
    const answer = request.exchange.filter((t) => t.role === 'candidate').at(-1)?.text ?? '';
    const words = answer.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    if (words >= THIN_ANSWER_WORDS) return { ok: true, value: { followUp: null } };
    const texts = OFFLINE_FOLLOW_UPS[request.language];
    return { ok: true, value: { followUp: texts[(request.followUpNumber - 1) % texts.length] ?? null } };
  }
}
