import { SubscribableEvent } from '@hireloop/contracts';

/** The event types a webhook receives: "*" (all) or a list of them. */
export function EventsField({ value, onChange, error }: { value: string[]; onChange: (events: string[]) => void; error?: string | undefined }) {
  const all = value.includes('*');
  const toggle = (type: string, on: boolean) => onChange(on ? [...value.filter((t) => t !== '*'), type] : value.filter((t) => t !== type));
  return (
    <fieldset className="field" aria-describedby="webhook-events-error">
      <legend>Events</legend>
      <label className="check check-all">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? ['*'] : [])} /> All events (<code>*</code>)
      </label>
      <div className="checks">
        {SubscribableEvent.options.map((type) => (
          <label className="check" key={type}>
            <input type="checkbox" disabled={all} checked={all || value.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> <code>{type}</code>
          </label>
        ))}
      </div>
      <p className="error" id="webhook-events-error">{error ?? ''}</p>
    </fieldset>
  );
}
