import { router } from './trpc.js';
import { me } from './me.js';

/** Every public /api/v1 route: one procedure each, with its scope and REST mapping in meta. */
export const restRouter = router({
  me,
});
export type RestRouter = typeof restRouter;
