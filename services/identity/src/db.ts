import type { Generated, Kysely, Transaction } from '@hireloop/platform';

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string | null;
  created_at: Generated<Date>;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  scopes: string[];
  rate_limit_per_minute: number;
  created_by: string | null;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface RateLimitBucketsTable {
  key_id: string;
  tokens: number;
  refilled_at: Date;
  allowed: boolean;
}

export interface LoginThrottlesTable {
  key: string;
  failures: number;
  window_started_at: Date;
  lockouts: Generated<number>;
  locked_until: Date | null;
  updated_at: Date;
}

export interface IdentityDB {
  'identity.organizations': OrganizationsTable;
  'identity.users': UsersTable;
  'identity.sessions': SessionsTable;
  'identity.api_keys': ApiKeysTable;
  'identity.rate_limit_buckets': RateLimitBucketsTable;
  'identity.login_throttles': LoginThrottlesTable;
}

export type Db = Kysely<IdentityDB> | Transaction<IdentityDB>;
export const SCHEMA = 'identity';
