import { createServiceProcedures } from '@hireloop/platform';

/** The recruiting service's procedure builders (one tRPC instance per process). */
export const { router, systemProcedure, orgProcedure, systemOrgProcedure, internalProcedure, createCallerFactory } = createServiceProcedures();
