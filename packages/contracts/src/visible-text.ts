import { text } from './common.js';

/**
 * Characters that show nothing on their own (issue 18 item 6): white space and controls, the
 * zero-width and format characters (Unicode's Default_Ignorable_Code_Point), and the fillers
 * that render as blanks (Hangul fillers, the blank Braille pattern). A name made only of them
 * looks empty in every list. Ranges of code points, inclusive; visible-text.test.ts holds them
 * against Unicode's properties, so an addition to Unicode shows up as a failing test.
 */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0020], // C0 controls, space
  [0x007f, 0x00a0], // DEL, C1 controls, no-break space
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul choseong and jungseong fillers
  [0x1680, 0x1680], // Ogham space mark
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x2000, 0x200f], // spaces, zero-width space, ZWNJ, ZWJ, LRM, RLM
  [0x2028, 0x202f], // line and paragraph separators, bidi embeddings and overrides, narrow no-break space
  [0x205f, 0x206f], // medium space, word joiner, invisible operators, bidi isolates, deprecated format
  [0x2800, 0x2800], // Braille pattern blank
  [0x3000, 0x3000], // ideographic space
  [0x3164, 0x3164], // Hangul filler
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff0, 0xfffb], // unassigned ignorables, interlinear annotation controls
  [0x13430, 0x1343f], // Egyptian hieroglyph format controls
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d173, 0x1d17a], // musical symbol format controls
  [0xe0000, 0xe0fff], // tags, variation selectors supplement
];

/** The bidi embedding and override controls (LRE, RLE, PDF, LRO, RLO): refused anywhere in a name. */
export const BIDI_OVERRIDES: readonly [number, number] = [0x202a, 0x202e];

/** A code point as a `\uXXXX` regular-expression class member, which JavaScript and Python read alike. */
const member = (cp: number) => `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const classOf = (ranges: readonly (readonly [number, number])[]) => ranges.map(([a, b]) => (a === b ? member(a) : `${member(a)}-${member(b)}`)).join('');
const BMP_INVISIBLE = INVISIBLE_RANGES.filter(([a]) => a <= 0xffff);

/**
 * One visible character, anywhere (JSON Schema patterns search; no anchors, so it stays linear),
 * as published. It names the invisible characters of the BMP only: a supplementary-plane
 * character cannot be written in a class that every reader of the document takes (Spectral reads
 * patterns without the `u` flag, where it is a surrogate pair; Python has no `\u{…}`), so the
 * tags and the other supplementary format characters are checked beside it (VISIBLE_ANYWHERE).
 */
export const VISIBLE_PATTERN = `[^${classOf(BMP_INVISIBLE)}]`;
/** No bidi embedding or override control, anywhere. */
export const NO_BIDI_OVERRIDE_PATTERN = `^[^${classOf([BIDI_OVERRIDES])}]*$`;

const VISIBLE_IN_BMP = new RegExp(VISIBLE_PATTERN, 'u');
const NO_BIDI_OVERRIDE = new RegExp(NO_BIDI_OVERRIDE_PATTERN, 'u');
const VISIBLE_ANYWHERE = new RegExp(`[^${classOf(BMP_INVISIBLE)}${INVISIBLE_RANGES.filter(([a]) => a > 0xffff).map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('')}]`, 'u');

export const VISIBLE_MESSAGE = 'must contain a visible character, not only spaces, zero-width or format characters';
export const BIDI_OVERRIDE_MESSAGE = 'must not contain the bidi embedding or override controls U+202A–U+202E';

/**
 * A required name or title in a request (issue 18 item 6): trimmed, 1–`max` characters, at least
 * one visible, and no bidi embedding or override (a name that reorders the text around it in a
 * list). U+200E, U+200F, ZWJ and ZWNJ stay allowed beside visible characters: Arabic, Hebrew and
 * Persian names need them. Request schemas only: a response reads rows stored before the rule.
 * Both rules are published as patterns (the visible one for the BMP, above).
 */
export function visibleName(max: number) {
  return (
    text()
      .trim()
      // Blank after trimming: one detail that says why ("Too small … >=1 characters" read oddly under a 3-space name).
      .min(1, { message: VISIBLE_MESSAGE, abort: true })
      .max(max)
      .regex(NO_BIDI_OVERRIDE, BIDI_OVERRIDE_MESSAGE)
      .regex(VISIBLE_IN_BMP, VISIBLE_MESSAGE)
      // Only what the published pattern cannot say, so a blank name gets one detail, not two.
      .refine((s) => !VISIBLE_IN_BMP.test(s) || VISIBLE_ANYWHERE.test(s), VISIBLE_MESSAGE)
  );
}
