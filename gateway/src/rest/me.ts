import { envelope, Me } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';

export const me = apiProcedure
  .meta({
    scope: 'read',
    openapi: { method: 'GET', path: '/me', tags: ['Account'], summary: 'Identify the calling key', description: 'The organization and scopes of the API key that made the request.' },
  })
  .input(z.object({}).strict())
  .output(envelope(Me))
  .query(({ ctx }) => ({
    data: { organization: ctx.caller.organization, key: ctx.caller.key, scopes: ctx.caller.scopes },
  }));
