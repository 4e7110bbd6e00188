import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreatePositionBody, EmploymentType, UpdatePositionBody, type Position } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { Field } from '../../components/Field.js';
import { useSaveForm } from '../../components/SaveForm.js';
import { EMPLOYMENT_TYPE_LABEL } from './labels.js';
import { QuestionsEditor, type QuestionDraft } from './QuestionsEditor.js';
import { RubricEditor, type CompetencyDraft } from './RubricEditor.js';
import { DEFAULT_RUBRIC_COMPETENCIES } from '@hireloop/recruiting/positions/default-rubric';
import { BusyButton } from '../../components/BusyButton.js';

/** `positions/new` and `positions/:id/edit`: one form, validated with the contracts' schemas. */
export default function PositionFormView() {
  const { id } = useParams();
  const position = useQuery({ ...recruiting.positions.get.queryOptions({ id: id ?? '' }), enabled: Boolean(id) });
  if (!id) return <PositionForm />;
  return (
    <QueryView query={position} loading="Loading the position…" notFound={<NoSuchResource what="position" list="/positions" listLabel="Back to the positions" />}>
      {(p) => <PositionForm current={p} />}
    </QueryView>
  );
}

interface Values {
  title: string;
  department: string;
  location: string;
  employmentType: Position['employmentType'];
  externalId: string;
  description: string;
  competencies: CompetencyDraft[];
  questions: QuestionDraft[];
}

const valuesOf = (p?: Position): Values => ({
  title: p?.title ?? '',
  department: p?.department ?? '',
  location: p?.location ?? '',
  employmentType: p?.employmentType ?? 'full_time',
  externalId: p?.externalId ?? '',
  description: p?.description ?? '',
  competencies: (p?.rubric.competencies ?? DEFAULT_RUBRIC_COMPETENCIES).map((c) => ({ key: c.key, name: c.name, description: c.description ?? '', weight: String(c.weight), levels: [...c.levels] })),
  questions: (p?.questions ?? []).map((q) => ({ id: q.id, text: q.text, competencies: [...q.competencies], maxFollowUps: q.maxFollowUps })),
});

const OPTIONAL = ['department', 'location', 'externalId', 'description'] as const;
/**
 * The questions after an edit of the rubric: a competency's key changed in place is renamed in
 * the questions about it, and one removed is dropped from them. Otherwise a question kept a key
 * the rubric no longer had, unticked on the page and refused by the server, with no way out.
 */
function questionsFollowing(before: CompetencyDraft[], after: CompetencyDraft[], questions: QuestionDraft[]): QuestionDraft[] {
  const keys = new Set(after.map((c) => c.key));
  const had = new Set(before.map((c) => c.key));
  // A rename only when the old key is gone and the new one is new: typing through another
  // competency's key (or clearing two) never merges their questions.
  const renamed = new Map(before.length === after.length
    ? before.flatMap((c, i) => (c.key !== after[i]!.key && !keys.has(c.key) && !had.has(after[i]!.key) ? [[c.key, after[i]!.key] as const] : []))
    : []);
  return questions.map((q) => ({ ...q, competencies: [...new Set(q.competencies.map((k) => renamed.get(k) ?? k))].filter((k) => keys.has(k)) }));
}

/** Blank rows are dropped: an empty list means the default questions. */
const questionsOf = (v: Values) =>
  v.questions.filter((q) => q.text.trim()).map((q) => ({ ...(q.id ? { id: q.id } : {}), text: q.text.trim(), competencies: q.competencies, maxFollowUps: q.maxFollowUps }));

/** The weight as a number when it is one (otherwise the string, for the schema to refuse). */
const rubricOf = (v: Values) => ({
  competencies: v.competencies.map((c) => ({
    key: c.key.trim(),
    name: c.name.trim(),
    description: c.description.trim() || null,
    weight: /^\d+$/.test(c.weight.trim()) ? Number(c.weight) : c.weight,
    levels: c.levels.map((l) => l.trim()),
  })),
});

function createInput(v: Values) {
  return {
    title: v.title,
    employmentType: v.employmentType,
    rubric: rubricOf(v),
    questions: questionsOf(v),
    ...Object.fromEntries(OPTIONAL.filter((f) => v[f].trim()).map((f) => [f, v[f]])),
  };
}

/** Errors under `prefix`, keyed by the rest of their path ('' for the list itself). */
const errorsUnder = (errors: Record<string, string>, prefix: string) =>
  Object.fromEntries(Object.entries(errors).filter(([path]) => path === prefix || path.startsWith(`${prefix}.`)).map(([path, message]) => [path.slice(prefix.length + 1), message]));

/** Only what changed; a cleared optional field is null. */
function changeOf(current: Position, v: Values) {
  const change: Record<string, unknown> = {};
  if (v.title.trim() !== current.title) change['title'] = v.title;
  if (v.employmentType !== current.employmentType) change['employmentType'] = v.employmentType;
  for (const f of OPTIONAL) {
    const was = current[f];
    const now = f === 'description' ? v[f] : v[f].trim();
    if (!v[f].trim()) {
      if (was !== null) change[f] = null;
    } else if (now !== was) change[f] = v[f];
  }
  const rubric = rubricOf(v);
  if (JSON.stringify(rubric.competencies) !== JSON.stringify(current.rubric.competencies.map((c) => ({ key: c.key, name: c.name, description: c.description, weight: c.weight, levels: c.levels })))) {
    // With the version the form was filled from: a rubric someone else changed meanwhile is 409, not overwritten.
    change['rubric'] = { version: current.rubric.version, ...rubric };
  }
  const questions = questionsOf(v);
  if (JSON.stringify(questions) !== JSON.stringify(current.questions)) change['questions'] = questions;
  return change;
}

function PositionForm({ current: live }: { current?: Position }) {
  // The position as the form was filled from it: what an edit is compared with, and the rubric
  // version it is made from. The live query can refetch meanwhile (a colleague's save); comparing
  // with that would send its version with this form's older values and undo their change unseen.
  const [current] = useState(live);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => valuesOf(current));
  const form = useSaveForm(CreatePositionBody, UpdatePositionBody, Boolean(current));
  const done = (position: Position) => {
    void queryClient.invalidateQueries({ queryKey: recruiting.positions.pathKey() });
    void navigate(`/positions/${position.id}`);
  };
  const create = useMutation(recruiting.positions.create.mutationOptions({ onSuccess: done, onError: form.onCreateError }));
  const update = useMutation(recruiting.positions.update.mutationOptions({ onSuccess: done, onError: form.onUpdateError }));
  const mutation = current ? update : create;

  const submit = (event: FormEvent) =>
    form.submit(event, current ? { change: changeOf(current, values), update: (change) => update.mutate({ id: current.id, change }) } : { input: createInput(values), create: (input) => create.mutate(input) });
  const set = (field: (typeof OPTIONAL)[number] | 'title') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const back = current ? `/positions/${current.id}` : '/positions';

  return (
    <section aria-labelledby="position-form-title">
      <p><Link to={back}>← {current ? current.title : 'Positions'}</Link></p>
      <h1 id="position-form-title">{current ? `Edit ${current.title}` : 'New position'}</h1>
      <form className="card" onSubmit={submit} noValidate>
        <div className="grid">
          <Field label="Title" error={form.errors['title']}>
            {(p) => <input {...p} type="text" name="title" maxLength={200} value={values.title} onChange={set('title')} />}
          </Field>
          <Field label="Employment type" error={form.errors['employmentType']}>
            {(p) => (
              <select {...p} name="employmentType" value={values.employmentType} onChange={(e) => setValues((v) => ({ ...v, employmentType: EmploymentType.parse(e.target.value) }))}>
                {EmploymentType.options.map((t) => <option key={t} value={t}>{EMPLOYMENT_TYPE_LABEL[t]}</option>)}
              </select>
            )}
          </Field>
          <Field label="Department" optional error={form.errors['department']}>
            {(p) => <input {...p} type="text" name="department" maxLength={200} value={values.department} onChange={set('department')} />}
          </Field>
          <Field label="Location" optional error={form.errors['location']}>
            {(p) => <input {...p} type="text" name="location" maxLength={200} value={values.location} onChange={set('location')} />}
          </Field>
          <Field label="External id" hint="Your ATS's id for this job." optional error={form.errors['externalId']}>
            {(p) => <input {...p} type="text" name="externalId" maxLength={200} value={values.externalId} onChange={set('externalId')} />}
          </Field>
        </div>
        <Field label="Description" hint="Markdown. An AI job description can be applied from the position's page." optional error={form.errors['description']}>
          {(p) => <textarea {...p} name="description" rows={8} maxLength={20_000} value={values.description} onChange={set('description')} />}
        </Field>
        <RubricEditor
          version={current?.rubric.version}
          competencies={values.competencies}
          onChange={(competencies) => setValues((v) => ({ ...v, competencies, questions: questionsFollowing(v.competencies, competencies, v.questions) }))}
          errors={errorsUnder(form.errors, 'rubric.competencies')}
        />
        <QuestionsEditor
          questions={values.questions}
          competencies={values.competencies}
          onChange={(questions) => setValues((v) => ({ ...v, questions }))}
          errors={errorsUnder(form.errors, 'questions')}
        />
        <p className="error" role="alert">{mutation.isError && !Object.keys(form.errors).length ? errorMessage(mutation.error) : ''}</p>
        {form.unchanged && <p className="muted" role="status">Nothing changed.</p>}
        <div className="actions">
          <BusyButton type="submit" busy={mutation.isPending}>{current ? 'Save changes' : 'Create position'}</BusyButton>
          <Link to={back}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}
