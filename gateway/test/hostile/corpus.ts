/**
 * The nasty values of the hostile-input suite (issue 7): what a hostile or careless client sends.
 * Strings are JS strings (sent as JSON, so escaped); the percent forms go into URLs as they are.
 */
export const NASTY_STRINGS: string[] = [
  'a\u0000b',
  '\u0000',
  'x\ud800y',
  '\udc00',
  '\ud83d',
  '',
  ' ',
  '30',
  '1e309',
  '-0',
  'null',
  'true',
  '[]',
  '{}',
  "'; drop table candidates; --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '\u202e\u200b\ufeff',
  // Issue 18: blank-looking names, a bidi override beside visible text, an undeliverable e-mail.
  '\u200b\u200c\u200d\u2060',
  '\u2800\u3164\u00ad',
  'Ann\u202eeoJ',
  `${'a'.repeat(65)}@example.com`,
  'https://example.com:0/\t',
  '\u{1F600}'.repeat(50),
  'x'.repeat(20_001),
  '%00%ff',
];

/** JSON values of the wrong kind or out of range, for any field. */
export const NASTY_VALUES: unknown[] = [
  ...NASTY_STRINGS,
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: { prototype: { polluted: true } } },
];

/** Raw JSON texts a parser must survive, as bytes. */
export const NASTY_BODIES: { name: string; bytes: Buffer }[] = [
  { name: 'invalid UTF-8 in a string', bytes: Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]) },
  { name: 'a UTF-8-encoded surrogate', bytes: Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]) },
  { name: 'overlong UTF-8 NUL', bytes: Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]) },
  { name: 'a raw NUL byte', bytes: Buffer.from('{"name": "a\u0000b"}') },
  { name: '10 000-deep arrays', bytes: Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) },
  { name: '10 000-deep objects', bytes: Buffer.from(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`) },
  { name: '65-deep', bytes: Buffer.from(`{"metadata": ${'['.repeat(64)}${']'.repeat(64)}}`) },
  { name: 'unbalanced', bytes: Buffer.from(']]]]}}}}{') },
  { name: '1 MiB + 1', bytes: Buffer.from(`{"name": "${'x'.repeat(1024 * 1024 - 11)}"}`) },
  { name: 'truncated', bytes: Buffer.from('{"name": "abc') },
  { name: 'empty', bytes: Buffer.alloc(0) },
  { name: 'null', bytes: Buffer.from('null') },
  { name: 'a string', bytes: Buffer.from('"hello"') },
  { name: 'a number', bytes: Buffer.from('1e999') },
  { name: 'an array', bytes: Buffer.from('[1, 2, 3]') },
  { name: 'a BOM', bytes: Buffer.from('\ufeff{}') },
  { name: 'UTF-16', bytes: Buffer.from('{"name": "x"}', 'utf16le') },
  { name: 'huge number', bytes: Buffer.from(`{"duration": 1${'0'.repeat(400)}}`) },
  { name: 'duplicate keys', bytes: Buffer.from('{"name": "a", "name": "b"}') },
];

/** Path segments: percent garbage, traversal, NUL, a surrogate in UTF-8 (invalid), overlong forms. */
export const NASTY_PATH_SEGMENTS: string[] = ['%', '%zz', '%ff', '%c3%28', '%00', '%ed%a0%80', '%c0%80', '%2F', '..', '%2e%2e', '%252e', 'cand_%00aaaaaaaaaa', 'x'.repeat(2000), '%E2%80%AE', '%20', '*', "'"];

/** Query values, already percent-encoded. */
export const NASTY_QUERY_VALUES: string[] = [
  ...NASTY_PATH_SEGMENTS,
  '1e1', '%2B5', '%205', '-1', '0', '101', '99999999999999999999', '1.5', 'NaN', 'Infinity', '0x10', 'true',
  encodeURIComponent('a\u0000b'), '%ed%b0%80', 'x'.repeat(1000),
];

/** Headers a client may send wrong. Sizes keep a request under Node's 16 KiB header limit (beyond it, 431 headers_too_large: hostile-surfaces.test.ts). */
export const CONTENT_TYPES = [
  'application/json', 'APPLICATION/JSON', 'Application/Json; Charset=UTF-8', 'application/json; charset=utf-8', 'application/json; charset="UTF-8"',
  'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=', 'application/json;;;',
  'application/vnd.api+json', 'application/jsonx', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', '*/*',
];
export const CONTENT_ENCODINGS = [undefined, 'identity', 'gzip', 'GZIP', 'br', 'deflate', 'bogus', 'gzip, gzip', 'compress'];
/** Idempotency-Key and X-Request-Id values (headers carry latin1 only). */
export const NASTY_HEADER_VALUES = ['', ' ', 'x'.repeat(300), 'x'.repeat(4000), '\u00e9\u00ff', 'a b', 'req_../../etc', '%00', '"quoted"'];
