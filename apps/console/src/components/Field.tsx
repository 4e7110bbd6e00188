// Form fields with a label, hint and error, and validation with the contracts' zod schemas.
import { useId, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { errorDetails } from '../trpc.js';

export type FieldErrors = Record<string, string>;

/** The first message per field path ('' for the form itself) of a zod error or a service's details. */
export function fieldErrorsOf(issues: Array<{ path: PropertyKey[] | string; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = Array.isArray(issue.path) ? issue.path.map(String).join('.') : issue.path;
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * Messages a recruiter reads, for the checks the contracts leave to zod's own words ("Too small:
 * expected string to have >=1 characters"); a message a schema gives itself still wins.
 */
function friendly(issue: z.core.$ZodRawIssue): string | undefined {
  const n = (v: unknown) => Number(v).toLocaleString('en-GB');
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'Required.' : `At least ${n(issue.minimum)} characters.`;
      if (issue.origin === 'array') return `At least ${n(issue.minimum)}.`;
      return `At least ${n(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `At most ${n(issue.maximum)} characters.`;
      return `At most ${n(issue.maximum)}.`;
    case 'invalid_type':
      if (issue.expected === 'number' || issue.expected === 'int') return 'Enter a whole number.';
      if (issue.expected === 'string') return 'Required.';
      return undefined;
    default:
      return undefined;
  }
}

/** The value at an issue's path in the form's values. */
function valueAt(values: unknown, path: PropertyKey[]): unknown {
  let value = values;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/**
 * Validates form values with a contract schema before they are sent, and maps a service's
 * refusal (its `appDetails`) back onto the same fields.
 *   const form = useZodForm(CreateApiKeyInput);
 *   const input = form.validate(values); if (input) mutation.mutate(input);
 * A field left empty that must not be says so ("Required.", or its message in `whenEmpty`, such
 * as "Choose a position."), not what a filled one must look like ("must be an id starting with pos_").
 */
export function useZodForm<S extends z.ZodType>(schema: S, whenEmpty: Record<string, string> = {}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  return {
    errors,
    validate(values: unknown): z.infer<S> | null {
      const parsed = schema.safeParse(values, { error: friendly });
      if (parsed.success) {
        setErrors({});
        return parsed.data;
      }
      setErrors(fieldErrorsOf(parsed.error.issues.map((issue) => {
        if (valueAt(values, issue.path) !== '') return issue;
        return { path: issue.path, message: whenEmpty[issue.path.map(String).join('.')] ?? 'Required.' };
      })));
      return null;
    },
    /** After the service refused: its field details, or nothing when it named none. */
    /** `input`: the key the form's values sit under in the procedure's input (`{ id, change }`). */
    fromServer(error: unknown, input = 'body') {
      const prefix = `${input}.`;
      setErrors(fieldErrorsOf(errorDetails(error).map((d) => ({ path: d.path.startsWith(prefix) ? d.path.slice(prefix.length) : d.path, message: d.message }))));
    },
    clear: () => setErrors({}),
  };
}

/** A labelled control: `children` receives the id and aria props to spread on the input. */
export function Field({ label, hint, error, children, optional }: {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  children: (props: { id: string; 'aria-describedby': string; 'aria-invalid': boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} {optional && <span className="hint">(optional)</span>}
      </label>
      {children({ id, 'aria-describedby': `${hint ? hintId : ''} ${errorId}`.trim(), 'aria-invalid': Boolean(error) })}
      {hint && <p className="hint" id={hintId}>{hint}</p>}
      <p className="error" id={errorId}>{error ?? ''}</p>
    </div>
  );
}
