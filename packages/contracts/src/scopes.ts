import { z } from 'zod';

/** API key scopes. Independent of each other: `admin` does not imply `read` or `write` (PRODUCT.md §2). */
export const Scope = z.enum(['read', 'write', 'admin']);
export type Scope = z.infer<typeof Scope>;
export const SCOPES = Scope.options;
