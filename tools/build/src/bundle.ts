import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build, type Plugin } from 'esbuild';

/**
 * A deployable's `npm run build`: each entry (relative to the workspace, under src/) becomes one
 * ES module in dist/ with the same path (src/cli/keys.ts → dist/cli/keys.js). Our workspace
 * packages (@hireloop/*) are compiled into the bundle, so production needs neither tsx nor their
 * TypeScript sources; every npm package stays an import, resolved from the production-only
 * node_modules (unless a workspace needs a version other than the hoisted one: see below).
 * Same depth as src/, so paths built from import.meta.url keep working.
 *
 * `--workflows <file>` also prebundles the Temporal workflow code into dist/workflow-bundle.js,
 * which the worker loads with `workflowBundle` instead of bundling at start (≈ 3 s, and webpack
 * plus the TypeScript sources at run time).
 *
 * `--workflow-interceptors <file>` bundles a workflow interceptor module with it.
 *
 * Usage (from a workspace): node --import tsx ../../tools/build/src/bundle.ts src/index.ts [--workflows src/workflows.ts [--workflow-interceptors src/x.ts]]
 */

/**
 * Where Node would find a bare import from a directory, or null when `require` cannot say (an
 * ESM-only package, a missing one): then the import stays as it is.
 */
function resolvedFrom(dir: string, specifier: string): string | null {
  try {
    return createRequire(join(dir, 'noop.js')).resolve(specifier);
  } catch {
    return null;
  }
}

/**
 * Bare imports that are not ours stay imports (node builtins included), resolved at run time from
 * the bundle's own place. A workspace package may depend on another version than the hoisted one
 * (platform's ipaddr.js 2 under packages/platform/node_modules, while express keeps 1.9 at the
 * root): such an import would find the wrong copy from dist/, so it is compiled in instead.
 */
function npmPackagesExternal(workspace: string): Plugin {
  const runtimeDir = join(workspace, 'dist');
  return {
    name: 'npm-packages-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@hireloop/')) return undefined;
        const wanted = resolvedFrom(args.resolveDir, args.path);
        const found = resolvedFrom(runtimeDir, args.path);
        if (wanted && found && wanted !== found) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

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
    plugins: [npmPackagesExternal(workspace)],
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
