import { z } from 'zod';
import { ID_PREFIXES, int32, prefixedId, Timestamp, trimmedText } from './common.js';
import { visibleName } from './visible-text.js';
import { Scope } from './scopes.js';

export const OrganizationId = prefixedId(ID_PREFIXES.organization);
export const ApiKeyId = prefixedId(ID_PREFIXES.apiKey);
export const UserId = prefixedId(ID_PREFIXES.user);

/** A key's name as returned; a new key's name is ApiKeyNameInput (a visible character, issue 18). */
export const ApiKeyName = trimmedText(100);
export const ApiKeyNameInput = visibleName(100);
export const ScopeList = z
  .array(Scope)
  .max(Scope.options.length)
  .min(1, 'at least one scope is required')
  .refine((s) => new Set(s).size === s.length, 'scopes must not repeat');

/** Requests per minute a key may make; default 120 (PRODUCT.md §4). */
export const RateLimitPerMinute = int32(1, 1_000_000);
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 120;

export const OrganizationName = trimmedText(200);
export const OrganizationNameInput = visibleName(200);
export const Organization = z.object({ id: OrganizationId, name: OrganizationName });
export type Organization = z.infer<typeof Organization>;

/** The first characters of a key (`hl_` + 8), shown to recognise it. */
export const ApiKeyPrefix = z.string().max(32).describe('First characters of the key, for recognising it');

/** An API key as listed in the console: never the secret value, only its display prefix. */
export const ApiKey = z.object({
  id: ApiKeyId,
  name: z.string(),
  prefix: z.string().describe('First characters of the key, for recognising it'),
  scopes: z.array(Scope),
  rateLimitPerMinute: z.number().int(),
  createdBy: UserId.nullable(),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyInput = z.object({
  name: ApiKeyNameInput,
  scopes: ScopeList,
  rateLimitPerMinute: RateLimitPerMinute.optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

/** The response of key creation: the only time the full key is shown. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/** GET /api/v1/me (PRODUCT.md §7). */
export const Me = z
  .object({
    organization: Organization,
    key: z.object({ id: ApiKeyId, name: ApiKeyName, prefix: ApiKeyPrefix, createdAt: Timestamp }),
    scopes: ScopeList,
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

export const User = z.object({
  id: UserId,
  email: z.string(),
  name: z.string(),
  organization: Organization,
});
export type User = z.infer<typeof User>;
