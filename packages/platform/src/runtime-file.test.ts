import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeFilePath, workspaceRoot } from './runtime-file.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

describe('the runtime file (where the CLIs find `npm start`)', () => {
  it('is found from the workspace root at any depth: the source, and a bundle in dist/cli', () => {
    assert.equal(workspaceRoot(join(ROOT, 'packages/platform/src')), ROOT);
    // The built CLIs run from services/identity/dist/cli/*.js, one level deeper than this source.
    assert.equal(workspaceRoot(join(ROOT, 'services/identity/dist/cli')), ROOT);
    assert.equal(runtimeFilePath({}), join(ROOT, '.data', 'runtime.json'));
  });

  it('HIRELOOP_RUNTIME_FILE moves it', () => {
    assert.equal(runtimeFilePath({ HIRELOOP_RUNTIME_FILE: '/tmp/x.json' }), '/tmp/x.json');
  });
});
