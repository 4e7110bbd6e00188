import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateJobDescriptionBody, type Position, type Task } from '@hireloop/contracts';
import { errorMessage, integrations, recruiting } from '../../trpc.js';
import { ErrorState, Loading } from '../../components/PageState.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { BusyButton } from '../../components/BusyButton.js';
import { Field, useZodForm } from '../../components/Field.js';
import { Markdown } from './Markdown.js';

/** How often a running task is read again (the Temporal workflow writes its end). */
const POLL_MS = 1000;
const TONES = ['neutral', 'friendly', 'formal'] as const;
const finished = (task: Task | undefined) => task?.status === 'succeeded' || task?.status === 'failed';

/**
 * An AI job description for this position: generate (integrations' job-description task, a
 * Temporal workflow), follow the task, preview the rendered Markdown, and apply it to the
 * position's description after a confirmation.
 */
export function JobDescription({ position }: { position: Position }) {
  const queryClient = useQueryClient();
  const form = useZodForm(CreateJobDescriptionBody);
  const [values, setValues] = useState({ title: position.title, seniority: '', location: position.location ?? '', skills: '', tone: 'neutral', language: 'en' });
  const [taskId, setTaskId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [applied, setApplied] = useState(false);

  const create = useMutation(integrations.tasks.createJobDescription.mutationOptions({
    onSuccess: (task) => {
      setApplied(false);
      setTaskId(task.id);
    },
    onError: (error) => form.fromServer(error),
  }));
  const task = useQuery({
    ...integrations.tasks.get.queryOptions({ id: taskId ?? '' }),
    enabled: taskId !== null,
    refetchInterval: (query) => (finished(query.state.data) ? false : POLL_MS),
  });
  const apply = useMutation(integrations.tasks.applyToPosition.mutationOptions({
    onSuccess: (updated) => {
      setConfirming(false);
      setApplied(true);
      queryClient.setQueryData(recruiting.positions.get.queryKey({ id: updated.id }), updated);
      void queryClient.invalidateQueries({ queryKey: recruiting.positions.list.pathKey() });
    },
  }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const skills = values.skills.split(',').map((s) => s.trim()).filter(Boolean);
    const input = form.validate({
      title: values.title,
      positionId: position.id,
      tone: values.tone,
      language: values.language.trim() || 'en',
      ...(values.seniority.trim() ? { seniority: values.seniority } : {}),
      ...(values.location.trim() ? { location: values.location } : {}),
      ...(skills.length ? { skills } : {}),
    });
    if (input) create.mutate(input);
  };
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const current = task.data;
  // A job-description task's result (a task's result is a union over task kinds).
  const draft = current?.status === 'succeeded' && current.result && 'markdown' in current.result ? current.result : null;
  const running = create.isPending || (taskId !== null && !finished(current) && !task.isError);

  return (
    <section className="card" aria-labelledby="jd-title">
      <h2 id="jd-title">AI job description</h2>
      <p className="hint">Drafts a description from the title and what you add below. Nothing changes on the position until you apply it.</p>
      <form onSubmit={submit} noValidate>
        <div className="grid">
          <Field label="Job title" error={form.errors['title']}>
            {(p) => <input {...p} type="text" name="jd-title" maxLength={200} value={values.title} onChange={set('title')} />}
          </Field>
          <Field label="Seniority" hint="For example: senior, junior, lead." optional error={form.errors['seniority']}>
            {(p) => <input {...p} type="text" name="seniority" maxLength={100} value={values.seniority} onChange={set('seniority')} />}
          </Field>
          <Field label="Location" optional error={form.errors['location']}>
            {(p) => <input {...p} type="text" name="jd-location" maxLength={200} value={values.location} onChange={set('location')} />}
          </Field>
          <Field label="Skills" hint="Separated by commas." optional error={Object.entries(form.errors).find(([k]) => k.startsWith('skills'))?.[1]}>
            {(p) => <input {...p} type="text" name="skills" value={values.skills} onChange={set('skills')} />}
          </Field>
          <Field label="Tone" error={form.errors['tone']}>
            {(p) => (
              <select {...p} name="tone" value={values.tone} onChange={set('tone')}>
                {TONES.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            )}
          </Field>
          <Field label="Language" hint="A language tag such as en or de-CH." error={form.errors['language']}>
            {(p) => <input {...p} type="text" name="language" maxLength={35} value={values.language} onChange={set('language')} />}
          </Field>
        </div>
        <p className="error" role="alert">{create.isError && !Object.keys(form.errors).length ? errorMessage(create.error) : ''}</p>
        <BusyButton type="submit" busy={running}>{current ? 'Generate again' : 'Generate'}</BusyButton>
      </form>
      {taskId !== null && (
        <div className="jd-result" aria-live="polite">
          {task.isPending && <Loading label="Starting…" />}
          {task.isError && <ErrorState error={task.error} onRetry={() => void task.refetch()} title="The task could not be read." />}
          {current && !finished(current) && <Loading label={current.status === 'queued' ? 'Queued: waiting for a worker…' : 'Writing the job description…'} />}
          {current?.status === 'failed' && (
            <p className="error" role="alert">The job description could not be written: {current.error?.message ?? 'unknown error'}{current.error?.code ? ` (${current.error.code})` : ''}</p>
          )}
          {draft && (
            <>
              <h3>Preview</h3>
              <div className="markdown-preview" role="region" aria-label="Preview of the job description" tabIndex={0}>
                <Markdown text={draft.markdown} />
              </div>
              <p className="hint">Written by {draft.model}.</p>
              {applied ? (
                <p className="status" role="status" id="jd-applied" tabIndex={-1}>Applied: this is now the position's description.</p>
              ) : (
                <button type="button" onClick={() => { apply.reset(); setConfirming(true); }}>Apply to this position</button>
              )}
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Replace the description of “${position.title}”?`}
        confirmLabel="Apply"
        danger={false}
        busy={apply.isPending}
        focusAfter="jd-applied"
        onCancel={() => setConfirming(false)}
        onConfirm={() => taskId && apply.mutate({ id: taskId })}
      >
        <p>{position.description ? 'The position\'s current description is replaced by the preview.' : 'The preview becomes the position\'s description.'} The change is sent to your webhooks as <code>position.updated</code>.</p>
        {apply.isError && <p className="error" role="alert">{errorMessage(apply.error)}</p>}
      </ConfirmDialog>
    </section>
  );
}
