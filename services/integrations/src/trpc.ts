import { createServiceProcedures } from '@hireloop/platform';

/** The integrations service's procedure builders (one tRPC instance per process). */
export const { router, systemProcedure, orgProcedure, systemOrgProcedure } = createServiceProcedures();
