import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from '@hireloop/devstack/testing';
import { oasdiff, type OasdiffChange } from '@hireloop/devstack/oasdiff';
import { asSnapshot, SNAPSHOT_PATH, snapshotDocument, snapshotText } from '../src/contract/snapshot.js';
import { acceptedChange } from '../src/contract/accepted-changes.js';

// Issue 12 item 3: /api/v1 cannot break by accident. The live document is compared with the
// committed snapshot by oasdiff (`breaking`); additive changes must update the snapshot in the
// same commit (`npm run openapi:snapshot`).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SNAPSHOT = join(ROOT, SNAPSHOT_PATH);
const UPDATE = `Run \`npm run openapi:snapshot\` and commit ${SNAPSHOT_PATH} (and the docs/changelog.md entry it writes) with the change.`;

/** The live document, as the snapshot would hold it. */
async function live(): Promise<any> {
  const res = await call('GET', '/api/v1/openapi.json');
  assert.equal(res.status, 200);
  const doc = res.body as { servers: { url: string }[] };
  return asSnapshot(doc, doc.servers[0]!.url.replace(/\/api\/v1$/, ''));
}

/** What oasdiff says about going from the snapshot to `revision`. */
async function changes(command: 'breaking' | 'changelog', revision: unknown): Promise<OasdiffChange[]> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-contract-'));
  try {
    writeFileSync(join(dir, 'revision.json'), snapshotText(revision));
    return await oasdiff(command, SNAPSHOT, join(dir, 'revision.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const describeChange = (c: OasdiffChange) => `${c.id}${c.operation ? ` at ${c.operation} ${c.path}` : ''}: ${c.text}`;
const snapshot = () => JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as any;

describe(`The /api/v1 contract (${SNAPSHOT_PATH})`, () => {
  it('the live document breaks nothing the snapshot promises, but the changes the accepted list allows', async () => {
    const breaking = (await changes('breaking', await live())).filter((c) => !acceptedChange(c));
    assert.deepEqual(breaking.map(describeChange), [], '/api/v1 only adds (PRODUCT.md §9): a breaking change needs /api/v2, or an entry in gateway/src/contract/accepted-changes.ts that CLARIFICATIONS allows.');
  });

  it('the accepted list allows only what it names: another pattern, response field or operation still fails', async () => {
    const doc = snapshot();
    const body = doc.paths['/candidates'].post.requestBody.content['application/json'].schema;
    body.properties.externalId.pattern = '^[a-z]+$';
    body.properties.phone.allOf = [{ pattern: 'x' }, { pattern: 'y' }];
    doc.components.schemas.Webhook.properties.url.format = 'email';
    const refused = (await changes('breaking', doc)).filter((c) => !acceptedChange(c)).map((c) => c.id);
    assert.ok(refused.includes('request-property-pattern-added') || refused.includes('request-property-pattern-changed'), refused.join(', '));
    assert.ok(refused.includes('request-property-all-of-added'), refused.join(', '));
    assert.ok(refused.includes('response-property-type-changed'), refused.join(', '));
  });

  it('the snapshot is the live document: additive changes update it in the same commit', async () => {
    const doc = await live();
    if (snapshotText(doc) !== snapshotText(snapshot())) {
      const added = (await changes('changelog', doc)).map(describeChange);
      assert.fail(`The live /api/v1 document differs from ${SNAPSHOT_PATH}${added.length ? `:\n  ${added.join('\n  ')}` : ' (descriptions or other text)'}\n${UPDATE}`);
    }
  });

  it('npm run openapi:snapshot builds, in-process, the document the gateway serves', async () => {
    assert.equal(snapshotText(snapshotDocument()), snapshotText(await live()));
  });

  it('would catch a removed field, a narrowed enum and a response field made optional, and passes an added optional field', async () => {
    const removed = snapshot();
    const candidate = removed.components.schemas.Candidate;
    delete candidate.properties.name;
    candidate.required = candidate.required.filter((p: string) => p !== 'name');
    assert.ok((await changes('breaking', removed)).some((c) => c.id === 'response-required-property-removed' && c.path === '/candidates/{id}'));

    const narrowed = snapshot();
    const status = narrowed.paths['/positions'].get.parameters.find((p: { name: string }) => p.name === 'status');
    status.schema.enum = ['open'];
    assert.ok((await changes('breaking', narrowed)).some((c) => c.id.includes('enum-value-removed') && c.path === '/positions'));

    const optional = snapshot();
    optional.components.schemas.Candidate.required = optional.components.schemas.Candidate.required.filter((p: string) => p !== 'email');
    assert.ok((await changes('breaking', optional)).some((c) => c.id === 'response-property-became-optional'));

    const added = snapshot();
    added.components.schemas.Candidate.properties.pronouns = { type: 'string', maxLength: 50 };
    assert.deepEqual((await changes('breaking', added)).map(describeChange), []);
    assert.ok((await changes('changelog', added)).some((c) => c.id.includes('property-added')));
  });

  it('the reference links to the changelog, which the gateway serves', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as { info: { description: string } };
    assert.match(doc.info.description, /\(\/developers\/changelog\)/);
    const res = await call('GET', '/developers/changelog');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/);
    assert.equal(res.text, readFileSync(join(ROOT, 'docs', 'changelog.md'), 'utf8'));
  });
});
