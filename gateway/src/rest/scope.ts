import { AppError } from '@hireloop/platform';
import type { ApiCaller } from '../request-context.js';
import type { ApiRoute } from './route-table.js';

/**
 * 403 insufficient_scope unless the key holds exactly the route's scope (PRODUCT.md §2: scopes
 * are independent, `admin` implies nothing), naming the scope; null when it does. Checked before
 * anything about the input is looked at, so a key without the scope learns nothing else.
 */
export function scopeRefusal(caller: ApiCaller, route: ApiRoute): AppError | null {
  const scope = route.meta.scope;
  if (caller.scopes.includes(scope)) return null;
  return new AppError('insufficient_scope', `This route needs the \`${scope}\` scope; the key has ${caller.scopes.map((s) => `\`${s}\``).join(', ')}.`);
}
