import { ANCHOR_LEVELS, MAX_COMPETENCIES } from '@hireloop/contracts';
import { Field } from '../../components/Field.js';

/** A competency as the form holds it: the weight as typed, so a bad one can be shown and refused. */
export interface CompetencyDraft {
  key: string;
  name: string;
  description: string;
  weight: string;
  levels: string[];
}

export const emptyCompetency = (n: number): CompetencyDraft => ({ key: `competency_${n}`, name: '', description: '', weight: '1', levels: Array.from({ length: ANCHOR_LEVELS }, () => '') });

/**
 * The position's rubric (PRODUCT.md §12): 1–8 competencies, each with a key, a name, a weight
 * 1–10 and the five anchors of scores 1..5. `errors` is keyed by the path under
 * `rubric.competencies` ('' for the list).
 */
export function RubricEditor({ competencies, onChange, errors, version }: { competencies: CompetencyDraft[]; onChange: (c: CompetencyDraft[]) => void; errors: Record<string, string>; version?: number | undefined }) {
  const set = (i: number, patch: Partial<CompetencyDraft>) => onChange(competencies.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <fieldset className="rubric" aria-describedby="rubric-hint rubric-error">
      <legend>Rubric{version ? ` (version ${version})` : ''}</legend>
      <p className="hint" id="rubric-hint">
        What the AI scores against, with evidence ({competencies.length} of {MAX_COMPETENCIES} competencies). Each anchor says what a score of 1 to 5 looks like. Saving a change makes a new version; interviews already scheduled keep theirs.
      </p>
      <ol className="competency-list">
        {competencies.map((c, i) => (
          <li key={i} className="competency-editor">
            <div className="grid">
              <Field label={`Competency ${i + 1} name`} error={errors[`${i}.name`]}>
                {(p) => <input {...p} type="text" maxLength={100} value={c.name} onChange={(e) => set(i, { name: e.target.value })} />}
              </Field>
              <Field label={`Competency ${i + 1} key`} hint="Lowercase letters, digits and _." error={errors[`${i}.key`]}>
                {(p) => <input {...p} type="text" maxLength={40} value={c.key} onChange={(e) => set(i, { key: e.target.value })} />}
              </Field>
              <Field label={`Competency ${i + 1} weight`} hint="1–10" error={errors[`${i}.weight`]}>
                {(p) => <input {...p} type="number" min={1} max={10} step={1} value={c.weight} onChange={(e) => set(i, { weight: e.target.value })} />}
              </Field>
            </div>
            <Field label={`Competency ${i + 1} description`} optional error={errors[`${i}.description`]}>
              {(p) => <input {...p} type="text" maxLength={1000} value={c.description} onChange={(e) => set(i, { description: e.target.value })} />}
            </Field>
            <p className="error">{errors[`${i}.levels`] ?? ''}</p>
            {c.levels.map((level, n) => (
              <Field key={n} label={`Competency ${i + 1} anchor ${n + 1}`} error={errors[`${i}.levels.${n}`]}>
                {(p) => <input {...p} type="text" maxLength={500} value={level} onChange={(e) => set(i, { levels: c.levels.map((l, m) => (m === n ? e.target.value : l)) })} />}
              </Field>
            ))}
            <button type="button" className="danger small" disabled={competencies.length <= 1} onClick={() => onChange(competencies.filter((_, j) => j !== i))} aria-label={`Remove competency ${i + 1}`}>Remove</button>
          </li>
        ))}
      </ol>
      <button type="button" className="secondary small" disabled={competencies.length >= MAX_COMPETENCIES} onClick={() => onChange([...competencies, emptyCompetency(competencies.length + 1)])}>Add a competency</button>
      <p className="error" id="rubric-error">{errors[''] ?? ''}</p>
    </fieldset>
  );
}
