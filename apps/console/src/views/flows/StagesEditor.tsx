// The ordered stages of a flow being edited: name and kind per row, moved with buttons (keyboard
// first: focus stays on the pressed button, and a live region says where the stage went).
import { useEffect, useRef, useState } from 'react';
import type { StageKind } from '@hireloop/contracts';
import { STAGE_KINDS } from './stages.js';

export interface StageRow {
  key: number;
  name: string;
  kind: StageKind;
}

const MAX_STAGES = 20;
let nextKey = 0;
export const stageRow = (name = '', kind: StageKind = 'screen'): StageRow => ({ key: ++nextKey, name, kind });

export function StagesEditor({ stages, onChange, errors }: {
  stages: StageRow[];
  onChange: (stages: StageRow[]) => void;
  /** Field errors by path (`stages`, `stages.2.name`). */
  errors: Record<string, string>;
}) {
  const [status, setStatus] = useState('');
  // After a move or removal, where focus goes once the rows have re-rendered.
  const focusAfter = useRef<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (!focusAfter.current) return;
    const target = list.current?.ownerDocument.getElementById(focusAfter.current);
    focusAfter.current = null;
    (target as HTMLElement | null)?.focus();
  });

  const update = (i: number, change: Partial<StageRow>) => onChange(stages.map((s, j) => (j === i ? { ...s, ...change } : s)));
  const move = (i: number, by: -1 | 1) => {
    const j = i + by;
    const next = [...stages];
    [next[i], next[j]] = [next[j]!, next[i]!];
    onChange(next);
    const row = stages[i]!;
    // The pressed button may be disabled at the new place (first or last): focus its twin then.
    const edge = (by < 0 && j === 0) || (by > 0 && j === stages.length - 1);
    focusAfter.current = `stage-${row.key}-${(by < 0) !== edge ? 'up' : 'down'}`;
    setStatus(`Stage “${row.name || 'unnamed'}” is now stage ${j + 1}.`);
  };
  const remove = (i: number) => {
    const next = stages.filter((_, j) => j !== i);
    onChange(next);
    const neighbour = next[i] ?? next[i - 1];
    focusAfter.current = neighbour ? `stage-${neighbour.key}-name` : 'stage-add';
    setStatus('Stage removed.');
  };
  const add = () => {
    const row = stageRow();
    onChange([...stages, row]);
    focusAfter.current = `stage-${row.key}-name`;
  };

  return (
    <fieldset className="field stages-editor" aria-describedby="stages-error">
      <legend>Stages, in order</legend>
      <ol ref={list} className="stage-rows">
        {stages.map((s, i) => {
          const n = i + 1;
          const error = errors[`stages.${i}.name`] ?? errors[`stages.${i}.kind`] ?? errors[`stages.${i}`];
          return (
            <li key={s.key} className="stage-row">
              <span className="stage-num" aria-hidden="true">{n}.</span>
              <label className="visually-hidden" htmlFor={`stage-${s.key}-name`}>Stage {n} name</label>
              <input
                id={`stage-${s.key}-name`} type="text" maxLength={200} autoComplete="off" value={s.name} aria-invalid={Boolean(error)} aria-describedby={`stage-${s.key}-error`}
                onChange={(e) => update(i, { name: e.target.value })}
              />
              <label className="visually-hidden" htmlFor={`stage-${s.key}-kind`}>Stage {n} kind</label>
              <select id={`stage-${s.key}-kind`} value={s.kind} onChange={(e) => update(i, { kind: e.target.value as StageKind })}>
                {STAGE_KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
              </select>
              <span className="actions">
                <button type="button" id={`stage-${s.key}-up`} className="secondary small" aria-label={`Move stage ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>↑</button>
                <button type="button" id={`stage-${s.key}-down`} className="secondary small" aria-label={`Move stage ${n} down`} disabled={i === stages.length - 1} onClick={() => move(i, 1)}>↓</button>
                <button type="button" className="danger small" aria-label={`Remove stage ${n}`} disabled={stages.length === 1} onClick={() => remove(i)}>Remove</button>
              </span>
              <p className="error" id={`stage-${s.key}-error`}>{error ?? ''}</p>
            </li>
          );
        })}
      </ol>
      <button type="button" id="stage-add" className="secondary" onClick={add} disabled={stages.length >= MAX_STAGES}>Add a stage</button>
      <p className="error" id="stages-error">{errors['stages'] ?? ''}</p>
      <p className="visually-hidden" role="status" aria-live="polite">{status}</p>
    </fieldset>
  );
}
