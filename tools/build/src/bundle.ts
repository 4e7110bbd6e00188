import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * A deployable's `npm run build`: each entry (relative to the workspace, under src/) becomes one
 * ES module in dist/ with the same path (src/cli/keys.ts → dist/cli/keys.js). Our workspace
 * packages (@hireloop/*) are compiled into the bundle, so production needs neither tsx nor their
 * TypeScript sources; every npm package stays an import, resolved from the production-only
 * node_modules. Same depth as src/, so paths built from import.meta.url keep working.
 *
 * `--workflows <file>` also prebundles the Temporal workflow code into dist/workflow-bundle.js,
 * which the worker loads with `workflowBundle` instead of bundling at start (≈ 3 s, and webpack
 * plus the TypeScript sources at run time).
 *
 * `--workflow-interceptors <file>` bundles a workflow interceptor module with it.
 *
 * Usage (from a workspace): node --import tsx ../../tools/build/src/bundle.ts src/index.ts [--workflows src/workflows.ts [--workflow-interceptors src/x.ts]]
 */

/** Bare imports that are not ours stay imports (node builtins included). */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@hireloop/') ? undefined : { path: args.path, external: true }));
  },
};

export async function bundleDeployable(workspace: string, entries: string[], workflowsPath?: string, workflowInterceptors: string[] = []): Promise<void> {
  const outdir = join(workspace, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: workspace,
    entryPoints: entries,
    outbase: 'src',
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    keepNames: true,
    logLevel: 'warning',
    plugins: [npmPackagesExternal],
  });
  if (workflowsPath) {
    // Loaded only here: the other deployables build without the Temporal worker package.
    const { bundleWorkflowCode } = await import('@temporalio/worker');
    const { code } = await bundleWorkflowCode({
      workflowsPath: resolve(workspace, workflowsPath),
      workflowInterceptorModules: workflowInterceptors.map((m) => resolve(workspace, m)),
      logger: quietLogger,
    });
    mkdirSync(outdir, { recursive: true });
    writeFileSync(join(outdir, 'workflow-bundle.js'), code);
  }
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: (m: string) => process.stderr.write(`${m}\n`), error: (m: string) => process.stderr.write(`${m}\n`) };

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const workflows = option('--workflows');
  const interceptors = option('--workflow-interceptors');
  await bundleDeployable(process.cwd(), args, workflows, interceptors ? [interceptors] : []);
}
