import { useId } from 'react';
import { MAX_FOLLOW_UPS, MAX_QUESTIONS } from '@hireloop/contracts';
import { Field } from '../../components/Field.js';

/** A question as the form holds it; `id` keeps an existing question's id. */
export interface QuestionDraft {
  id?: string | undefined;
  text: string;
  competencies: string[];
  maxFollowUps: number;
}

/**
 * The interview questions of a position (PRODUCT.md §12): add, edit, reorder and remove, all with
 * buttons (keyboard and screen readers reach every action), each with the rubric's competencies
 * it is about and its follow-ups. `errors` is keyed by the path under `questions` ('' for the list).
 */
export function QuestionsEditor({ questions, competencies, onChange, errors }: {
  questions: QuestionDraft[];
  competencies: { key: string; name: string }[];
  onChange: (questions: QuestionDraft[]) => void;
  errors: Record<string, string>;
}) {
  const set = (i: number, patch: Partial<QuestionDraft>) => onChange(questions.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  const addId = useId();
  const rowsId = useId();
  const moveButtonId = (row: number, direction: 'up' | 'down') => `${rowsId}-${row}-${direction}`;
  // The last row's Remove goes with its row: keyboard focus goes to "Add a question", not to the page.
  const remove = (i: number) => {
    onChange(questions.filter((_, j) => j !== i));
    if (i === questions.length - 1) requestAnimationFrame(() => document.getElementById(addId)?.focus());
  };
  // Focus follows the moved question to its new row. At the top or the bottom of the list the
  // button pressed is disabled there, so focus goes to the row's other move button, not to the page.
  const move = (from: number, to: number) => {
    const next = [...questions];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    onChange(next);
    const up = to < from;
    const atEnd = up ? to === 0 : to === next.length - 1;
    const direction = up !== atEnd ? 'up' : 'down';
    requestAnimationFrame(() => document.getElementById(moveButtonId(to, direction))?.focus());
  };
  return (
    <fieldset className="questions" aria-describedby="questions-hint questions-error">
      <legend>Interview questions</legend>
      <p className="hint" id="questions-hint">
        What the AI interview asks, in this order ({questions.length} of {MAX_QUESTIONS}). A question left blank is left out; with none, a default set of four general questions is asked.
      </p>
      <ol className="question-list">
        {questions.map((question, i) => (
          <li key={i}>
            <Field label={`Question ${i + 1}`} error={errors[`${i}.text`] ?? errors[String(i)]}>
              {(p) => <textarea {...p} rows={2} maxLength={1000} value={question.text} onChange={(e) => set(i, { text: e.target.value })} />}
            </Field>
            <fieldset className="inline-checks">
              <legend>Question {i + 1} is about</legend>
              {competencies.map((c) => (
                <label className="check" key={c.key}>
                  <input
                    type="checkbox"
                    checked={question.competencies.includes(c.key)}
                    onChange={(e) => set(i, { competencies: e.target.checked ? [...question.competencies, c.key] : question.competencies.filter((k) => k !== c.key) })}
                  />{' '}
                  {c.name || c.key}
                </label>
              ))}
              <p className="error">{Object.entries(errors).find(([path]) => path.startsWith(`${i}.competencies`))?.[1] ?? ''}</p>
            </fieldset>
            <Field label={`Question ${i + 1} follow-ups`} hint="How many follow-up questions the interviewer may ask." error={errors[`${i}.maxFollowUps`]}>
              {(p) => (
                <select {...p} value={question.maxFollowUps} onChange={(e) => set(i, { maxFollowUps: Number(e.target.value) })}>
                  {Array.from({ length: MAX_FOLLOW_UPS + 1 }, (_, n) => <option key={n} value={n}>{n}</option>)}
                </select>
              )}
            </Field>
            <div className="actions">
              <button type="button" id={moveButtonId(i, 'up')} className="secondary small" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move question ${i + 1} up`}>Up</button>
              <button type="button" id={moveButtonId(i, 'down')} className="secondary small" disabled={i === questions.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move question ${i + 1} down`}>Down</button>
              <button type="button" className="danger small" onClick={() => remove(i)} aria-label={`Remove question ${i + 1}`}>Remove</button>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" id={addId} className="secondary small" disabled={questions.length >= MAX_QUESTIONS} onClick={() => onChange([...questions, { text: '', competencies: [], maxFollowUps: 1 }])}>Add a question</button>
      <p className="error" id="questions-error">{errors[''] ?? ''}</p>
    </fieldset>
  );
}
