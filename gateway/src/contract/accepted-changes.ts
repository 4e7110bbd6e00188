import { NON_BLANK_PATTERN } from '@hireloop/contracts';
import type { OasdiffChange } from '@hireloop/devstack/oasdiff';

/**
 * Changes oasdiff calls breaking that the v1 contract allows, each with its reason and its
 * changelog entry (CLARIFICATIONS 2026-11-26, "describing a rule is not narrowing it"). The gate
 * (gateway/test/openapi-contract.test.ts) and `npm run openapi:snapshot` pass these and fail on
 * anything else, so each entry names its change as narrowly as oasdiff's report allows: its id,
 * and the pattern, property or operation it is about.
 */
export interface AcceptedChange {
  id: string[];
  /** Holds for the change's text (and, where given, its operation and path). */
  matches: (change: OasdiffChange) => boolean;
  reason: string;
  /** The date of its entry in docs/changelog.md. */
  changelog: string;
}

const operationOf = (c: OasdiffChange) => `${c.operation ?? ''} ${c.path ?? ''}`;

/** The request fields that take a name or title (issue 18 item 6), as oasdiff names them. */
const NAME_FIELDS = new Set([
  'POST /ai/job-description location', 'POST /ai/job-description title',
  'POST /ats/events candidate/name', 'POST /ats/events job/title',
  'POST /candidates name', 'PATCH /candidates/{id} name',
  'POST /hiring-flows/{id}/candidates candidate/name',
  'POST /interviews candidate/name', 'POST /interviews title',
  'POST /positions department', 'POST /positions location', 'POST /positions title',
  'PATCH /positions/{id} department/anyOf[subschema #1]/', 'PATCH /positions/{id} location/anyOf[subschema #1]/', 'PATCH /positions/{id} title',
  // A rubric competency's name (2026-11-29: it had been left out).
  'POST /positions rubric/competencies/items/name', 'PATCH /positions/{id} rubric/competencies/items/name',
]);
/** What an interview asks and scores against (2026-11-30): question texts and a rubric's anchors. */
const INTERVIEW_TEXT_FIELDS = new Set(
  ['POST /positions', 'PATCH /positions/{id}'].flatMap((op) => ['interviewQuestions/items/', 'questions/items/text', 'rubric/competencies/items/levels/items/'].map((field) => `${op} ${field}`)),
);
/** The request property an `allOf` was added to, from oasdiff's text. */
const allOfProperty = (c: OasdiffChange) => /to the `([^`]+)` request property `allOf` list/.exec(c.text)?.[1];

/** The e-mail responses of v1: the candidate, and the candidate summary of interviews. */
const EMAIL_RESPONSE = /^the `data\/(items\/)?(candidate\/)?email` response's property `format` changed from `email` to `none` for status `20[01]`$/;

export const ACCEPTED_CHANGES: AcceptedChange[] = [
  {
    id: ['request-property-pattern-added', 'request-parameter-pattern-added'],
    matches: (c) => c.text.includes(`added the pattern \`${NON_BLANK_PATTERN}\` to the `),
    reason:
      'Trimmed texts that are empty after trimming were always refused (422); the pattern only publishes that rule (CLARIFICATIONS 2026-11-26, "describing a rule is not narrowing it").',
    changelog: '2026-11-26',
  },
  {
    id: ['request-property-pattern-added'],
    matches: (c) => ['POST /webhooks', 'PATCH /webhooks/{id}'].includes(operationOf(c)) && c.text === 'added the pattern `^[^\\u0000-\\u001F\\u007F]*$` to the request property `url`',
    reason:
      'A webhook URL with a control character (tab, CR, LF) was stored with it silently removed, hiding the client\'s mistake; it is now 422 and the pattern says so (issue 18 item 8).',
    changelog: '2026-11-26',
  },
  {
    id: ['request-property-all-of-added'],
    matches: (c) => c.text.startsWith('added `subschema #1, subschema #2` to the ') && NAME_FIELDS.has(`${operationOf(c)} ${allOfProperty(c) ?? ''}`),
    reason:
      'A name or title must hold a visible character and no bidi override (issue 18 item 6): a name of zero-width or filler characters looks empty in every list. The two patterns publish the rule; responses keep reading older rows.',
    changelog: '2026-11-26',
  },
  {
    id: ['request-property-all-of-added'],
    matches: (c) => c.text.startsWith('added `subschema #1, subschema #2` to the ') && INTERVIEW_TEXT_FIELDS.has(`${operationOf(c)} ${allOfProperty(c) ?? ''}`),
    reason:
      'A question or a rubric anchor must hold a visible character and no bidi override, as names do (issue 18 item 6): one of zero-width characters was stored and asked as a blank, or scored against as an empty anchor (found by a black-box run). The two patterns publish the rule; responses keep reading older rows.',
    changelog: '2026-11-30',
  },
  {
    id: ['request-property-unique-items-set'],
    matches: (c) => ['POST /webhooks', 'PATCH /webhooks/{id}'].includes(operationOf(c)) && c.text === "the `events` request property's uniqueItems was set to true",
    reason:
      'A webhook\'s event types were always refused when they repeat (422 "event types must not repeat"); uniqueItems publishes that rule (CLARIFICATIONS 2026-11-26, "describing a rule is not narrowing it"; found by schemathesis).',
    changelog: '2026-11-26',
  },
  {
    id: ['response-property-type-changed'],
    matches: (c) => EMAIL_RESPONSE.test(c.text),
    reason:
      'Response e-mails drop `format: email` and keep their pattern and length: rows stored before the server checked RFC 5321\'s limits (a 65-character local part) are still returned (CLARIFICATIONS 2026-11-26, "E-mail addresses").',
    changelog: '2026-11-26',
  },
  {
    id: ['new-required-request-property'],
    matches: (c) => ['POST /positions', 'PATCH /positions/{id}'].includes(operationOf(c)) && c.text === 'added the new required request property `/not/interviewQuestions`',
    reason:
      'The body\'s `not` gains `properties: {interviewQuestions: {minItems: 1}}`: the server refuses `questions` with a non-empty `interviewQuestions` and always took an empty one beside `questions` as not given. oasdiff reads the property inside `not` as a new required one; the document now refuses less, exactly what the server refuses.',
    changelog: '2026-11-29',
  },
];

/** The entry that allows this breaking change, if any. */
export function acceptedChange(change: OasdiffChange): AcceptedChange | undefined {
  return ACCEPTED_CHANGES.find((a) => a.id.includes(change.id) && a.matches(change));
}
