import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  const Schema = z.object({ OPENAI_API_KEY: z.string().min(1).optional(), OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'), PORT: z.coerce.number().int() });

  it('reads an empty setting as unset, as docker-compose passes `${X:-}` for a setting left out', () => {
    assert.deepEqual(loadConfig(Schema, { OPENAI_API_KEY: '', OPENAI_MODEL: '', PORT: '3102' }), { OPENAI_MODEL: 'gpt-4o-mini', PORT: 3102 });
  });

  it('still refuses a required setting that is empty, with its name', () => {
    assert.throws(() => loadConfig(Schema, { PORT: '' }), (err: Error) => err instanceof ConfigError && /PORT/.test(err.message));
  });
});
