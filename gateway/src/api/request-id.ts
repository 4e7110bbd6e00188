import type { NextFunction, Request, Response } from 'express';
import { isWellFormedRequestId, newRequestId } from '@hireloop/platform';
import { setLocals } from '../request-context.js';

/** Every response carries X-Request-Id: a well-formed incoming one is echoed, else a new `req_…`. */
export function requestId() {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && isWellFormedRequestId(incoming) ? incoming : newRequestId();
    setLocals(req, { requestId: id });
    res.setHeader('X-Request-Id', id);
    next();
  };
}
