import { Field } from '../../components/Field.js';

/** PRODUCT.md §7: a position asks 0–20 questions; none means the default set. */
const MAX_QUESTIONS = 20;

/**
 * The interview questions of a position: add, edit, reorder and remove, all with buttons (keyboard
 * and screen readers reach every action). `errors` is keyed by the question's index, '' for the list.
 */
export function QuestionsEditor({ questions, onChange, errors }: { questions: string[]; onChange: (questions: string[]) => void; errors: Record<string, string> }) {
  const move = (from: number, to: number) => {
    const next = [...questions];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item ?? '');
    onChange(next);
  };
  return (
    <fieldset className="questions" aria-describedby="questions-hint questions-error">
      <legend>Interview questions</legend>
      <p className="hint" id="questions-hint">
        What the AI interview asks, in this order ({questions.length} of {MAX_QUESTIONS}). With none, a default set of four general questions is asked.
      </p>
      <ol className="question-list">
        {questions.map((question, i) => (
          <li key={i}>
            <Field label={`Question ${i + 1}`} error={errors[String(i)]}>
              {(p) => <textarea {...p} rows={2} maxLength={1000} value={question} onChange={(e) => onChange(questions.map((q, j) => (j === i ? e.target.value : q)))} />}
            </Field>
            <div className="actions">
              <button type="button" className="secondary small" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move question ${i + 1} up`}>Up</button>
              <button type="button" className="secondary small" disabled={i === questions.length - 1} onClick={() => move(i, i + 1)} aria-label={`Move question ${i + 1} down`}>Down</button>
              <button type="button" className="danger small" onClick={() => onChange(questions.filter((_, j) => j !== i))} aria-label={`Remove question ${i + 1}`}>Remove</button>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" className="secondary small" disabled={questions.length >= MAX_QUESTIONS} onClick={() => onChange([...questions, ''])}>Add a question</button>
      <p className="error" id="questions-error">{errors[''] ?? ''}</p>
    </fieldset>
  );
}
