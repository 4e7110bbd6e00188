import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root, wherever the command was started from. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** `npm start`'s data (Postgres, Temporal, secrets); HIRELOOP_DATA_DIR moves it (the Ctrl-C benchmark uses a throw-away one). */
export const DATA_DIR = process.env['HIRELOOP_DATA_DIR'] ?? join(ROOT, '.data');
export const TOOLS_DIR = join(ROOT, '.tools');
