import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateApiKeyInput, SCOPES, type ApiKey, type CreatedApiKey, type Scope } from '@hireloop/contracts';
import { identity, errorMessage } from '../../trpc.js';
import { apiBaseUrl } from '../../config.js';
import { pagesInUrl, useCursorPages, withoutPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { BusyButton } from '../../components/BusyButton.js';
import { keepFocus } from '../../components/focus.js';
import { formatTime } from '../../components/format.js';
import { useSearchParamsNow } from '../../components/searchParams.js';
import { SCOPE_HELP } from './scopes.js';

const PAGE_SIZE = 25;

export default function KeysView() {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p className="lead">
        An API key lets your applicant-tracking system call the Hireloop API as this organization. Send it as{' '}
        <code>Authorization: Bearer hl_…</code> to <code>{apiBaseUrl()}</code>.
      </p>
      {created && (
        <SecretOnce title={`New key “${created.name}”`} secret={created.key} label="The new API key" onDone={() => setCreated(null)} />
      )}
      <CreateKey onCreated={setCreated} />
      <KeyList />
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(CreateApiKeyInput);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read', 'write']);
  const [rate, setRate] = useState('');
  const create = useMutation(identity.apiKeys.create.mutationOptions({
    onSuccess: (key) => {
      onCreated(key);
      setName('');
      setRate('');
      void queryClient.invalidateQueries({ queryKey: identity.apiKeys.list.pathKey() });
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = form.validate({ name, scopes, ...(rate.trim() ? { rateLimitPerMinute: Number(rate) } : {}) });
    if (input) create.mutate(input);
  };
  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  return (
    <section className="card" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Name" error={form.errors['name']}>
          {(p) => <input {...p} name="name" type="text" maxLength={100} placeholder="ATS sync" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <fieldset className="field" aria-describedby="key-scopes-error">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label className="check scope" key={scope}>
              <input type="checkbox" name="scopes" value={scope} checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
              <span><strong>{scope}</strong> <span className="hint">{SCOPE_HELP[scope]}</span></span>
            </label>
          ))}
          <p className="error" id="key-scopes-error">{form.errors['scopes'] ?? ''}</p>
        </fieldset>
        <Field label="Rate limit per minute" hint="Default 120." optional error={form.errors['rateLimitPerMinute']}>
          {(p) => <input {...p} name="rateLimitPerMinute" type="number" min={1} max={1_000_000} step={1} inputMode="numeric" value={rate} onChange={(e) => setRate(e.target.value)} />}
        </Field>
        <p className="error" role="alert">{create.isError && !Object.keys(form.errors).length ? errorMessage(create.error) : ''}</p>
        <BusyButton type="submit" busy={create.isPending}>Create key</BusyButton>
      </form>
    </section>
  );
}

function KeyList() {
  // The filter and the page live in the URL (`?active=1&cursor=…`): a cursor belongs to its filter.
  const pages = useCursorPages(pagesInUrl());
  const [params, setParams] = useSearchParamsNow();
  const hideRevoked = params.get('active') === '1';
  const setHideRevoked = (on: boolean) => {
    const next = withoutPages(params);
    if (on) next.set('active', '1');
    else next.delete('active');
    setParams(next, { replace: true });
  };
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const list = useQuery({
    ...identity.apiKeys.list.queryOptions({ limit: PAGE_SIZE, ...(hideRevoked ? { activeOnly: true } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const revoke = useMutation(identity.apiKeys.revoke.mutationOptions({
    onSuccess: (key) => {
      setRevoked(key.name);
      setRevoking(null);
      // The row's Revoke button, which gets focus back, goes with the list's new page.
      void queryClient.invalidateQueries({ queryKey: identity.apiKeys.list.pathKey() }).then(() => keepFocus('key-revoked'));
    },
  }));
  const columns: Array<Column<ApiKey>> = [
    { header: 'Name', cell: (k) => k.name },
    { header: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
    { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
    { header: 'Rate limit', cell: (k) => `${k.rateLimitPerMinute.toLocaleString()}/min`, className: 'num' },
    { header: 'Created', cell: (k) => formatTime(k.createdAt) },
    { header: 'Last used', cell: (k) => (k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never') },
    {
      header: 'Status',
      cell: (k) => <span className={k.revokedAt ? 'badge badge-muted' : 'badge badge-ok'} title={k.revokedAt ? `Revoked ${formatTime(k.revokedAt)}` : undefined}>{k.revokedAt ? 'revoked' : 'active'}</span>,
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (k) => (k.revokedAt ? null : <button type="button" className="danger small" aria-label={`Revoke key ${k.name}`} onClick={() => { revoke.reset(); setRevoked(null); setRevoking(k); }}>Revoke</button>),
    },
  ];
  return (
    <section className="card" aria-labelledby="keys-list-title">
      <div className="card-head">
        <h2 id="keys-list-title">Keys</h2>
        <label className="check"><input type="checkbox" checked={hideRevoked} onChange={(e) => setHideRevoked(e.target.checked)} /> Hide revoked keys</label>
      </div>
      <p className="status" role="status" id="key-revoked" tabIndex={-1}>{revoked ? `The key “${revoked}” is revoked: it is refused from its next request.` : ''}</p>
      <PagedTable query={list} pages={pages} caption="API keys" columns={columns} rowKey={(k) => k.id} empty={hideRevoked ? 'No active keys.' : 'No keys yet.'} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        focusAfter="key-revoked"
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      >
        <p>Integrations using <code>{revoking?.prefix}</code> are refused from their next request. This cannot be undone.</p>
        {revoke.isError && <p className="error" role="alert">{errorMessage(revoke.error)}</p>}
      </ConfirmDialog>
    </section>
  );
}
