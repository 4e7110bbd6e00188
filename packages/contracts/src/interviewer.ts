import { z } from 'zod';
import { ID_PREFIXES, int32, prefixedId, text, Timestamp, trimmedText } from './common.js';
import { visibleName } from './visible-text.js';

// The AI interviewer's resources (PRODUCT.md §12): a position's rubric and questions, an
// interview's transcript (turns), and the evidence-backed scores of an evaluation. Limits come
// from §12; each field has one schema, used by the input that sets it and the resource that
// returns it.

export const QuestionId = prefixedId(ID_PREFIXES.question);
export const TurnId = prefixedId(ID_PREFIXES.turn);

export const MAX_COMPETENCIES = 8;
export const MAX_QUESTIONS = 20;
export const ANCHOR_LEVELS = 5;
export const MAX_FOLLOW_UPS = 3;
/** At most this many evaluation versions per interview (PRODUCT.md §12 "Versions"). */
export const MAX_EVALUATION_VERSIONS = 10;
/** A candidate's answer turn, as today's answers (PRODUCT.md §12 "Turns"). */
export const MAX_ANSWER_CHARS = 10_000;

export const CompetencyKey = text()
  .max(40)
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be 1–40 lowercase letters, digits or _, starting with a letter')
  .describe('Stable key of the competency, unique in its rubric (`^[a-z][a-z0-9_]{0,39}$`)');

/** An anchor as stored and returned; a request's must be visible (VisibleAnchor). */
const Anchor = trimmedText(500);
const VisibleAnchor = visibleName(500);

/** A competency with its name and anchors as `name` and `level` check them: a request's must be visible (issue 18 item 6), a stored one is read as it was stored. */
const competencyWith = <Name extends z.ZodType<string>, Level extends z.ZodType<string>>(name: Name, level: Level) =>
  z
    .object({
      key: CompetencyKey,
      name,
      description: text().trim().max(1000).nullable().optional().describe('What the competency covers'),
      weight: int32(1, 10).describe('Its share of the overall score, 1–10'),
      levels: z.array(level).length(ANCHOR_LEVELS).describe('Exactly five anchors: what a score of 1, 2, 3, 4 and 5 looks like, in that order'),
    })
    .strict();
/** A competency as a request writes it: inline and strict in the document (see Competency). */
export const CompetencyInput = competencyWith(visibleName(100), VisibleAnchor);
/** The response's component: rubrics stored before names had to be visible are still read. */
export const Competency = competencyWith(trimmedText(100), Anchor).meta({ id: 'Competency' });
export type Competency = z.infer<typeof Competency>;

const Competencies = z
  .array(CompetencyInput)
  .min(1)
  .max(MAX_COMPETENCIES)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      if (seen.has(c.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `duplicate competency key "${c.key}"` });
      seen.add(c.key);
    });
  })
  .describe(`1–${MAX_COMPETENCIES} competencies with unique keys`);

/**
 * What a client writes: the competencies. The server assigns `version`; a client may send back the
 * version it read (a read-modify-write), and a PATCH made from an older one is refused.
 */
export const RubricInput = z
  .object({
    version: int32(1, 2_000_000_000)
      .optional()
      .describe('Optional: the `rubric.version` this change was made from, as read. On PATCH, a version that is no longer the position\'s is 409 `conflict` (the rubric or questions changed since), and nothing is changed. Ignored on POST.'),
    competencies: Competencies,
  })
  .strict()
  .describe('The employer\'s rubric; the server assigns its `version`');
export type RubricInput = z.infer<typeof RubricInput>;

export const Rubric = z
  .object({
    version: int32(1, 2_000_000_000).describe('Incremented by the server on every change of the rubric or the questions'),
    competencies: z.array(Competency.extend({ description: Competency.shape.description.unwrap() })).min(1).max(MAX_COMPETENCIES),
  })
  .meta({ id: 'Rubric' });
export type Rubric = z.infer<typeof Rubric>;

const QuestionText = trimmedText(1000);
/** A question a request writes: a visible character, as names (an invisible question is asked as a blank). */
export const QuestionTextInput = visibleName(1000);
const MaxFollowUps = int32(0, MAX_FOLLOW_UPS);

export const QuestionInput = z
  .object({
    id: QuestionId.optional().describe('Keep an existing question\'s id (an id the position does not have is 422); omit for a new question'),
    text: QuestionTextInput,
    competencies: z.array(CompetencyKey).max(MAX_COMPETENCIES).default([]).describe('Keys of this rubric\'s competencies the question is about; empty: any'),
    maxFollowUps: MaxFollowUps.default(1).describe('Follow-up questions the interviewer may ask, 0–3'),
  })
  .strict();
export type QuestionInput = z.input<typeof QuestionInput>;

export const QuestionsInput = z.array(QuestionInput).max(MAX_QUESTIONS).describe(`0–${MAX_QUESTIONS} questions; a default set is asked when empty`);

export const Question = z
  .object({
    id: QuestionId,
    text: QuestionText,
    competencies: z.array(CompetencyKey).max(MAX_COMPETENCIES),
    maxFollowUps: MaxFollowUps,
  })
  .meta({ id: 'Question' });
export type Question = z.infer<typeof Question>;
export const Questions = z.array(Question).max(MAX_QUESTIONS);

/**
 * The languages an interview can be held in (PRODUCT.md §12 "Language"): the invite page's fixed
 * texts and the AI notice exist in each, and the interviewer writes its follow-ups in it.
 */
export const INTERVIEW_LANGUAGES = ['en', 'de'] as const;
export const InterviewLanguage = z
  .enum(INTERVIEW_LANGUAGES)
  .describe('The language of the interview (BCP 47). Supported: `en` (English, the default) and `de` (German); any other value is 422 `validation_failed`. The invite page, the AI notice and the interviewer\'s follow-up questions use it; the scripted questions are asked as the position words them.');
export type InterviewLanguage = z.infer<typeof InterviewLanguage>;

/** What the candidate is given beyond `duration` (PRODUCT.md §12 "Time"). */
/**
 * As a request sends it: inline in the request body, so the document says that an unknown key is
 * refused (the shared components are the responses', which stay open for additions).
 */
export const AccommodationsInput = z
  .object({
    extraTimePercent: int32(0, 100).default(0).describe('Extra time on top of `duration`, 0–100 percent: the time budget shown to the candidate is `duration` × (1 + extraTimePercent / 100)'),
  })
  .strict();
export const Accommodations = AccommodationsInput.meta({ id: 'Accommodations' });
export type Accommodations = z.infer<typeof Accommodations>;

/** Why a follow-up was not asked (PRODUCT.md §12 "Turns"); `invalid_output` also when it is not in the interview's language. */
export const FollowUpSkipped = z.enum(['timeout', 'provider_error', 'invalid_output', 'forbidden_topic', 'budget']);
export type FollowUpSkipped = z.infer<typeof FollowUpSkipped>;

/** Integrity signals of an answer turn (JavaScript only; never used in any score). */
export const TurnSignals = z
  .object({
    paste: z.array(z.object({ at: Timestamp, characters: int32(0, 1_000_000) })).max(100).optional(),
    focusLost: z.object({ count: int32(0, 100_000), seconds: int32(0, 1_000_000) }).optional(),
    typingSeconds: int32(0, 1_000_000).optional(),
  })
  .meta({ id: 'TurnSignals' });
export type TurnSignals = z.infer<typeof TurnSignals>;

export const TurnRole = z.enum(['interviewer', 'candidate']);
export const TurnKind = z.enum(['question', 'follow_up', 'answer']);

export const Turn = z
  .object({
    id: TurnId,
    role: TurnRole,
    kind: TurnKind,
    questionId: QuestionId.describe('The scripted question this turn belongs to'),
    text: z.string().max(MAX_ANSWER_CHARS),
    at: Timestamp,
    signals: TurnSignals.optional(),
    followUpSkipped: FollowUpSkipped.optional().describe('Set on an answer turn after which a follow-up was considered and not asked'),
  })
  .meta({ id: 'Turn' });
export type Turn = z.infer<typeof Turn>;

export const Transcript = z
  .object({ turns: z.array(Turn).max(1000).describe('In the order they happened; empty once erased or past the answers retention') })
  .meta({ id: 'Transcript' });
export type Transcript = z.infer<typeof Transcript>;

/** A verified quote: `start`/`end` count Unicode code points into the turn's stored text. */
export const Evidence = z
  .object({
    turnId: TurnId,
    quote: z.string().min(1).max(300).describe('The candidate\'s words, exactly as stored in the turn'),
    start: int32(0, MAX_ANSWER_CHARS).describe('Offset of the first code point of the quote in the turn\'s text'),
    end: int32(1, MAX_ANSWER_CHARS).describe('Offset just after the quote\'s last code point'),
  })
  .meta({ id: 'Evidence' });
export type Evidence = z.infer<typeof Evidence>;

export const CompetencyScore = z
  .object({
    key: CompetencyKey,
    name: z.string().max(100),
    weight: int32(1, 10),
    score: int32(1, 5).nullable().describe('1–5, or null when no verified quote supports a score'),
    rationale: z.string().max(2000),
    evidence: z.array(Evidence).max(3).describe('1–3 verified quotes for a scored competency'),
    insufficientEvidence: z.boolean(),
  })
  .meta({ id: 'CompetencyScore' });
export type CompetencyScore = z.infer<typeof CompetencyScore>;

/** Which rubric a re-run scores against: the one the interview pinned, or the position's current one. */
export const RerunBody = z
  .object({ rubric: z.enum(['pinned', 'current']).default('pinned').describe('`pinned` (the rubric version pinned at scheduling) or `current` (the position\'s rubric now)') })
  .strict()
  .meta({ id: 'RerunBody' });
export type RerunBody = z.infer<typeof RerunBody>;

/**
 * What the model (or the offline provider) returns for a rubric evaluation: per competency a
 * score, a rationale and quotes, nothing else. Recruiting verifies the quotes and computes the
 * overall score; the model never does.
 */
export const ModelEvaluation = z.object({
  competencies: z
    .array(
      z.object({
        key: z.string().max(40),
        score: z.number().int().min(1).max(5).nullable(),
        rationale: z.string().max(2000),
        quotes: z.array(z.object({ turnId: z.string().max(100), quote: z.string().max(2000) })).max(10),
      }),
    )
    .max(20),
});
export type ModelEvaluation = z.infer<typeof ModelEvaluation>;
