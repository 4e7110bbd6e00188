import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BIDI_OVERRIDES, INVISIBLE_RANGES, NO_BIDI_OVERRIDE_PATTERN, VISIBLE_MESSAGE, VISIBLE_PATTERN, visibleName } from './visible-text.js';
import { NON_BLANK_PATTERN, trimmedText } from './common.js';
import { emailLimitBroken, EmailAddress, StoredEmail } from './email.js';

const inRanges = (cp: number) => INVISIBLE_RANGES.some(([a, b]) => cp >= a && cp <= b);
const codePoints = function* (test: RegExp) {
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (test.test(String.fromCodePoint(cp))) yield cp;
  }
};
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const Name = visibleName(200);

/**
 * Format characters that render a visible mark of their own (the prepended concatenation marks
 * of Arabic, Syriac and Kaithi number signs): a name of them is not blank.
 */
const VISIBLE_FORMAT = new Set([0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd]);

describe('names and titles need a visible character (issue 18 item 6)', () => {
  it('the invisible set holds every white space, control and default-ignorable code point of this Unicode', () => {
    const missing = [...codePoints(/^[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}]$/u)].filter((cp) => !inRanges(cp));
    assert.deepEqual(missing.map(hex), []);
  });

  it('every format character is invisible but the number signs that draw a mark', () => {
    const missing = [...codePoints(/^\p{Cf}$/u)].filter((cp) => !inRanges(cp) && !VISIBLE_FORMAT.has(cp));
    assert.deepEqual(missing.map(hex), []);
  });

  it('a name made only of zero-width, format or filler characters is refused', () => {
    for (const name of ['\u200b', '\u200c\u200d', '\u2060', '\u00ad', '\u2800', '\u3164', '\uffa0', '\u115f\u1160', '\ufeff', '\u{e0001}\u{e0020}', ' \u200b\t', '\u200e\u200f']) {
      assert.equal(Name.safeParse(name).success, false, JSON.stringify(name));
    }
  });

  it('a blank name (empty, spaces) gets one detail that says why, not a length one beside it', () => {
    for (const name of ['', '   ', '\t \u00a0']) {
      const issues = Name.safeParse(name).error?.issues ?? [];
      assert.deepEqual(issues.map((i) => i.message), [VISIBLE_MESSAGE], JSON.stringify(name));
    }
  });

  it('the bidi embedding and override controls are refused anywhere, beside visible characters too', () => {
    for (let cp = BIDI_OVERRIDES[0]; cp <= BIDI_OVERRIDES[1]; cp++) {
      for (const name of [`Ann${String.fromCodePoint(cp)}`, `${String.fromCodePoint(cp)}Ann`, `An${String.fromCodePoint(cp)}n`]) {
        assert.equal(Name.safeParse(name).success, false, JSON.stringify(name));
      }
    }
  });

  it('RLM, LRM, ZWJ and ZWNJ stay allowed inside a name with visible characters', () => {
    for (const name of ['\u200fשרה כהן', 'مريم\u200cمحمدی', 'می\u200cخواهم', 'Zoë\u200d', '\u200eAnn', '👩\u200d💻 Ada']) {
      assert.equal(Name.safeParse(name).data, name.trim(), JSON.stringify(name));
    }
  });

  it('the published patterns read the same with and without the u flag (Spectral reads them without)', () => {
    for (const pattern of [VISIBLE_PATTERN, NO_BIDI_OVERRIDE_PATTERN, NON_BLANK_PATTERN]) {
      const plain = new RegExp(pattern);
      const unicode = new RegExp(pattern, 'u');
      for (const sample of ['a', '\u200b', '\u202e', ' ', 'Zoë', '\u{1F600}']) assert.equal(plain.test(sample), unicode.test(sample), `${pattern} on ${JSON.stringify(sample)}`);
    }
  });

  it('the published non-blank pattern is exactly "not empty after trim()"', () => {
    const nonBlank = new RegExp(NON_BLANK_PATTERN, 'u');
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      assert.equal(nonBlank.test(c), c.trim() !== '', hex(cp));
    }
    assert.equal(trimmedText(10).safeParse(' \u3000 ').success, false);
  });
});

describe('e-mail addresses as RFC 5321 limits them (issue 18 item 7)', () => {
  it('a local part over 64 characters, a label over 63, a label starting or ending with - are refused', () => {
    for (const address of [`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`, 'a@b-.example.com', 'a@example-.com']) {
      assert.ok(emailLimitBroken(address), address);
      assert.equal(EmailAddress.safeParse(address).success, false, address);
    }
  });

  it('addresses at the limits pass', () => {
    for (const address of [`${'a'.repeat(64)}@example.com`, `a@${'b'.repeat(63)}.com`, 'a@b-c.example.com']) {
      assert.equal(emailLimitBroken(address), null, address);
      assert.equal(EmailAddress.safeParse(address).success, true, address);
    }
  });

  it('the response schema still reads a row stored before the limits', () => {
    assert.equal(StoredEmail.safeParse(`${'a'.repeat(70)}@example.com`).success, true);
  });
});
