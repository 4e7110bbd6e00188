import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RecruitingConfig } from './config.js';

describe('recruiting config', () => {
  const days = (value: string) => RecruitingConfig.shape.RETENTION_ANSWERS_DAYS.safeParse(value);

  it('RETENTION_ANSWERS_DAYS is 30 to 3650, 365 by default: kept events hold evaluation snapshots 30 days', () => {
    assert.equal(RecruitingConfig.shape.RETENTION_ANSWERS_DAYS.parse(undefined), 365);
    for (const ok of ['30', '90', '3650']) assert.equal(days(ok).success, true, ok);
    for (const bad of ['29', '1', '0', '3651', '30.5']) assert.equal(days(bad).success, false, bad);
    assert.match(days('29').error!.issues[0]!.message, /evaluation snapshots for 30 days/);
  });
});
