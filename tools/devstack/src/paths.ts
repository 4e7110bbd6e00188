import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root, wherever the command was started from. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DATA_DIR = join(ROOT, '.data');
export const TOOLS_DIR = join(ROOT, '.tools');
export const RUNTIME_FILE = join(DATA_DIR, 'runtime.json');
