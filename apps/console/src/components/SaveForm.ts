// A create-or-edit form over two procedures (`x.create` and `x.update({ id, change })`): the
// values are validated with the contract's create schema or its update schema before anything is
// sent, an edit that changes nothing is not sent (and says so), and a service's refusal is shown
// on the fields it names. Focus moves to the first field refused, whichever side refused it.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { useZodForm } from './Field.js';

export function useSaveForm<C extends z.ZodType, U extends z.ZodType>(createSchema: C, updateSchema: U, editing: boolean) {
  const createForm = useZodForm(createSchema);
  const updateForm = useZodForm(updateSchema);
  const [unchanged, setUnchanged] = useState(false);
  const errors = editing ? updateForm.errors : createForm.errors;
  // The form last submitted, and whether its next errors should take the focus (a refusal, not
  // a field's error cleared as it is edited).
  const submitted = useRef<HTMLFormElement | null>(null);
  const focusRefused = useRef(false);
  useEffect(() => {
    if (!focusRefused.current) return;
    focusRefused.current = false;
    submitted.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  const refused = () => (focusRefused.current = true);
  return {
    /** The errors of the form in use, by field path. */
    errors,
    /** True after an edit that changed nothing was submitted. */
    unchanged,
    onCreateError: (error: unknown) => {
      refused();
      createForm.fromServer(error);
    },
    onUpdateError: (error: unknown) => {
      refused();
      updateForm.fromServer(error, 'change');
    },
    /**
     * Submits: a new record's input to `create`, or an edit's change to `update`, each only when
     * it validates (the fields show why not); an empty change is not sent.
     */
    submit(event: FormEvent, save: { input: unknown; create: (input: z.infer<C>) => void } | { change: Record<string, unknown>; update: (change: z.infer<U>) => void }) {
      event.preventDefault();
      setUnchanged(false);
      submitted.current = event.currentTarget instanceof HTMLFormElement ? event.currentTarget : null;
      if ('input' in save) {
        const input = createForm.validate(save.input);
        if (input !== null) save.create(input);
        else refused();
        return;
      }
      const change = updateForm.validate(save.change);
      if (change === null) {
        refused();
        return;
      }
      if (Object.keys(save.change).length === 0) setUnchanged(true);
      else save.update(change);
    },
  };
}
