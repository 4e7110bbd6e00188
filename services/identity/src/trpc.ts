import { createServiceProcedures } from '@hireloop/platform';

/** The identity service's procedure builders (one tRPC instance per process). */
export const { router, systemProcedure, orgProcedure, internalProcedure, createCallerFactory } = createServiceProcedures();
