import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SetStageMappingsInput, type StageMappings } from '@hireloop/contracts';
import { recruiting, errorMessage } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { BusyButton } from '../../components/BusyButton.js';

/** "Phone screen, Technical interview" → ['Phone screen', 'Technical interview']. */
const splitList = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

export default function AtsView() {
  const [editing, setEditing] = useState<StageMappings | null>(null);
  const [formKey, setFormKey] = useState(0);
  const list = useQuery(recruiting.ats.stageMappings.queryOptions());
  const edit = (mapping: StageMappings | null) => {
    setEditing(mapping);
    setFormKey((k) => k + 1);
  };
  const columns: Array<Column<StageMappings>> = [
    { header: 'Source', cell: (m) => <code>{m.source}</code> },
    { header: 'Stages that schedule an AI interview', cell: (m) => <ul className="chips">{m.stages.map((s) => <li className="chip" key={s}>{s}</li>)}</ul> },
    { header: 'Actions', hiddenHeader: true, cell: (m) => <button type="button" className="secondary small" aria-label={`Edit the mappings of ${m.source}`} onClick={() => edit(m)}>Edit</button> },
  ];
  return (
    <section aria-labelledby="ats-title">
      <h1 id="ats-title">ATS stage mappings</h1>
      <p className="lead">
        When your applicant-tracking system reports that an application entered one of these stages, Hireloop schedules an AI
        interview. Stage names match without regard to case. Saving replaces the list of that source; an empty list clears it.
      </p>
      <section className="card" aria-labelledby="ats-list-title">
        <h2 id="ats-list-title">Current mappings</h2>
        <QueryView query={list} isEmpty={(d) => d.items.length === 0} empty="No mappings yet: no ATS stage schedules an AI interview.">
          {(data) => <DataTable caption="ATS stage mappings" columns={columns} rows={data.items} rowKey={(m) => m.source} />}
        </QueryView>
      </section>
      <MappingForm key={formKey} initial={editing} onDone={() => edit(null)} />
    </section>
  );
}

function MappingForm({ initial, onDone }: { initial: StageMappings | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(SetStageMappingsInput);
  const [source, setSource] = useState(initial?.source ?? '');
  const [stages, setStages] = useState(initial?.stages.join(', ') ?? '');
  const [saved, setSaved] = useState<StageMappings | null>(null);
  const save = useMutation(recruiting.ats.setStageMappings.mutationOptions({
    onSuccess: (result) => {
      setSaved(result);
      void queryClient.invalidateQueries({ queryKey: recruiting.ats.stageMappings.queryKey() });
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const input = form.validate({ source: source.trim(), stages: splitList(stages) });
    if (input) save.mutate(input);
  };
  const stagesError = form.errors['stages'] ?? Object.entries(form.errors).find(([k]) => k.startsWith('stages.'))?.[1];
  return (
    <section className="card" aria-labelledby="ats-form-title">
      <h2 id="ats-form-title">{initial ? `Edit the mappings of ${initial.source}` : 'Set stage mappings'}</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Source" hint="Lowercase letters, digits, - and _ (e.g. greenhouse, lever)." error={form.errors['source']}>
          {(p) => <input {...p} name="source" type="text" maxLength={50} placeholder="greenhouse" spellCheck={false} value={source} readOnly={Boolean(initial)} onChange={(e) => setSource(e.target.value)} />}
        </Field>
        <Field label="Stage names" hint="Comma-separated; empty clears the source." error={stagesError}>
          {(p) => <input {...p} className="wide" name="stages" type="text" placeholder="Phone screen, Technical interview" value={stages} onChange={(e) => setStages(e.target.value)} />}
        </Field>
        <p className="error" role="alert">{save.isError && !Object.keys(form.errors).length ? errorMessage(save.error) : ''}</p>
        <div className="actions">
          <BusyButton type="submit" busy={save.isPending}>Save mappings</BusyButton>
          {initial && <button type="button" className="secondary" onClick={onDone}>Done editing</button>}
        </div>
      </form>
      {saved && (
        <p className="status" role="status">
          Saved <code>{saved.source}</code>: {saved.stages.length ? saved.stages.join(', ') : 'no stages (cleared)'}.
        </p>
      )}
    </section>
  );
}
