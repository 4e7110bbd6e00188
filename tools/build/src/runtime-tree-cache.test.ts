import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInputsHash, cachedRuntimeTree } from './runtime-tree.js';

/**
 * The runtime-tree cache that lets `test:faults` reuse the tree `test:topology` built: keyed by a
 * hash of the build inputs, in a git checkout of its own (a temporary one here).
 */
describe('the runtime-tree cache', () => {
  let repo: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'hireloop-tree-cache-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    write('.gitignore', 'dist/\n.data/\n');
    write('services/a/src/index.ts', 'export const a = 1;\n');
    write('services/a/test/a.test.ts', 'test one\n');
    execFileSync('git', ['add', '-A'], { cwd: repo });
  });
  after(() => rmSync(repo, { recursive: true, force: true }));

  it('changes with a source file, tracked or new, and not with tests or ignored output', () => {
    const start = buildInputsHash(repo);
    assert.match(start ?? '', /^[0-9a-f]{24}$/);
    write('services/a/test/a.test.ts', 'test two\n');
    write('services/a/src/b.test.ts', 'a test beside the source\n');
    write('services/a/dist/index.js', 'built\n');
    assert.equal(buildInputsHash(repo), start, 'tests and build output are not inputs');
    write('services/a/src/index.ts', 'export const a = 2;\n');
    const edited = buildInputsHash(repo);
    assert.notEqual(edited, start, 'an edited source');
    write('services/a/src/new.ts', 'export const n = 1;\n');
    assert.notEqual(buildInputsHash(repo), edited, 'a new, untracked source');
  });

  it('reuses a complete tree of the same inputs, without building', () => {
    const cacheRoot = join(repo, '.data', 'runtime-trees');
    const tree = join(cacheRoot, buildInputsHash(repo)!);
    mkdirSync(tree, { recursive: true });
    writeFileSync(join(tree, '.runtime-tree-complete'), 'made earlier\n');
    // A build here would fail (this repository has no package.json): reuse is the only way through.
    assert.deepEqual(cachedRuntimeTree(cacheRoot, repo), { tree, reused: true });
  });

  it('has no hash outside a git checkout, so nothing is reused there', () => {
    const bare = mkdtempSync(join(tmpdir(), 'hireloop-no-git-'));
    try {
      assert.equal(buildInputsHash(bare), null);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
