import type { ColumnType, Generated, Kysely, Transaction } from '@hireloop/platform';

type Timestamp = ColumnType<Date, Date | undefined, Date>;
type Json<T> = ColumnType<T, string, string>;

export interface CandidatesTable {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  phone: string | null;
  source: Generated<string>;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PositionsTable {
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
  department: string | null;
  location: string | null;
  employment_type: string;
  status: 'open' | 'closed';
  source: Generated<string>;
  external_id: string | null;
  interview_questions: Json<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecruitingDB {
  'recruiting.candidates': CandidatesTable;
  'recruiting.positions': PositionsTable;
}

export type Db = Kysely<RecruitingDB> | Transaction<RecruitingDB>;
export const SCHEMA = 'recruiting';
