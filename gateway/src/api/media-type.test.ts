import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonMediaTypeProblem, parseMediaType } from './media-type.js';

describe('media types as RFC 9110 reads them (issue 18 item 5)', () => {
  it('type, subtype and parameter names are case-insensitive; a value may be quoted', () => {
    assert.deepEqual(parseMediaType('Application/JSON; Charset="UTF-8"'), { essence: 'application/json', parameters: new Map([['charset', 'UTF-8']]) });
    assert.deepEqual(parseMediaType('text/plain ;\tformat="a \\"b\\"" '), { essence: 'text/plain', parameters: new Map([['format', 'a "b"']]) });
  });

  it('empty parameters are allowed, malformed ones are not', () => {
    assert.equal(parseMediaType('application/json;;; ')?.essence, 'application/json');
    for (const bad of ['application/json; charset=', 'application/json; charset=utf-8 x', 'application/json; =x', 'application', '/json', 'application/json x', 'application/json; a="b']) {
      assert.equal(parseMediaType(bad), null, bad);
    }
  });

  it('a parameter given twice is ambiguous, so no media type', () => {
    assert.equal(parseMediaType('application/json; charset=utf-8; CHARSET=latin1'), null);
  });

  it('JSON in UTF-8 is read in every spelling: a quoted charset, utf8, any case', () => {
    for (const header of ['application/json', 'Application/JSON; Charset="UTF8"', 'application/json; charset=utf8', 'APPLICATION/JSON;CHARSET=UTF-8', 'application/vnd.api+json; charset="utf-8"', 'application/json;']) {
      assert.equal(jsonMediaTypeProblem(header), null, header);
    }
  });

  it('another media type or charset is refused', () => {
    for (const header of [undefined, '', 'text/plain', 'application/jsonx', 'application/json; charset=latin1', 'application/json; charset="utf-16"', 'application/json; charset=utf-8; charset=latin1']) {
      assert.ok(jsonMediaTypeProblem(header), String(header));
    }
  });

  it('the refusal says what is wrong, never "application/json, not application/json"', () => {
    assert.equal(jsonMediaTypeProblem('Text/Plain; charset=utf-8'), 'Send the body as application/json, not text/plain.');
    const twice = jsonMediaTypeProblem('application/json; charset=utf-8; charset=utf-8');
    assert.match(twice ?? '', /could not be read \(malformed, or a parameter given twice\)/);
    assert.doesNotMatch(twice ?? '', /not application\/json/);
    assert.equal(jsonMediaTypeProblem(undefined), 'Send the body as application/json.');
  });
});
