import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TOOLS_DIR } from './paths.js';
import { step, withProgress } from './log.js';

const run = promisify(execFile);

/**
 * oasdiff, the OpenAPI breaking-change checker (issue 12 item 3). Pinned: a new release can
 * classify changes differently (CLARIFICATIONS, "Breaking-change gate").
 */
export const OASDIFF_VERSION = 'v1.35.0';
const MODULE = `github.com/oasdiff/oasdiff@${OASDIFF_VERSION}`;
const BIN_DIR = join(TOOLS_DIR, 'oasdiff', OASDIFF_VERSION);
const LOCAL_BIN = join(BIN_DIR, 'oasdiff');

export class OasdiffMissing extends Error {}

/**
 * The oasdiff binary: OASDIFF if set, else the copy cached in .tools/, else built there from the Go
 * module proxy (`go install`, minutes on a cold cache, so only when it is missing).
 */
export async function findOrBuildOasdiff(explicit = process.env['OASDIFF']): Promise<string> {
  if (explicit) return explicit;
  if (existsSync(LOCAL_BIN)) return LOCAL_BIN;
  step(`oasdiff not found in .tools/; building ${MODULE} into ${BIN_DIR} (once)`);
  try {
    await withProgress(`go install ${MODULE}`, run('go', ['install', MODULE], { env: { ...process.env, GOBIN: BIN_DIR }, maxBuffer: 16 * 1024 * 1024 }));
  } catch (err) {
    throw new OasdiffMissing(
      [
        `Could not build oasdiff: ${(err as { stderr?: string }).stderr?.trim().split('\n').slice(-3).join('\n') || (err as Error).message}`,
        'Do one of these, then run the command again:',
        `  - install Go (https://go.dev/dl/) so \`go install ${MODULE}\` can run;`,
        '  - or set OASDIFF to an oasdiff binary (https://github.com/oasdiff/oasdiff/releases).',
      ].join('\n'),
    );
  }
  return LOCAL_BIN;
}

export type OasdiffChange = { id: string; level: number; text: string; operation?: string; path?: string };

/** `oasdiff <command> base revision` as JSON: the changes from `base` (the snapshot) to `revision`. */
export async function oasdiff(command: 'breaking' | 'changelog', base: string, revision: string): Promise<OasdiffChange[]> {
  const bin = await findOrBuildOasdiff();
  const { stdout } = await run(bin, [command, base, revision, '--format', 'json'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim() ? (JSON.parse(stdout) as OasdiffChange[]) : [];
}
