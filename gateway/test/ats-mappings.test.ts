import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newOrganizationWithKey, testRecruiting } from '@hireloop/devstack/testing';

// The console's ATS page (issue 10): the current stage mappings are listed before they are edited.
describe('ATS stage mappings as the console reads and sets them', () => {
  it('lists every source of the organization with its stages as stored (lowercase, once each), and only its own', async () => {
    const [a, b] = await Promise.all([newOrganizationWithKey(), newOrganizationWithKey()]);
    const recruiting = testRecruiting().forOrganization(a.organization.id);
    assert.deepEqual(await recruiting.ats.stageMappings.query(), { items: [] });

    const saved = await recruiting.ats.setStageMappings.mutate({ source: 'lever', stages: ['Phone Screen', 'phone screen ', 'AI Interview'] });
    assert.deepEqual(saved, { source: 'lever', stages: ['phone screen', 'ai interview'] });
    await recruiting.ats.setStageMappings.mutate({ source: 'greenhouse', stages: ['Technical'] });
    assert.deepEqual(await recruiting.ats.stageMappings.query(), {
      items: [
        { source: 'greenhouse', stages: ['technical'] },
        { source: 'lever', stages: ['ai interview', 'phone screen'] },
      ],
    });
    assert.deepEqual(await testRecruiting().forOrganization(b.organization.id).ats.stageMappings.query(), { items: [] });

    // Saving an empty list clears the source.
    await recruiting.ats.setStageMappings.mutate({ source: 'lever', stages: [] });
    assert.deepEqual(await recruiting.ats.stageMappings.query(), { items: [{ source: 'greenhouse', stages: ['technical'] }] });
  });
});
