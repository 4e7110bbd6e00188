// Quote verification (PRODUCT.md §12 "Evidence"): a quote is kept only if it occurs verbatim in
// the candidate turn it names, after NFC and whitespace folding on both sides. Offsets are
// Unicode code points into the turn's text as stored, and the kept quote is that stored text, so
// `[...text].slice(start, end).join('')` gives the quote back.

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const WHITESPACE = /^\s+$/u;

/** One UTF-16 unit of the folded text and the original code points [start, end) it came from. */
interface Folded {
  text: string;
  start: number[];
  end: number[];
  /** Whether a unit is the first (resp. last) of the folded form of one original cluster. */
  clusterStart: boolean[];
  clusterEnd: boolean[];
}

/**
 * NFC and whitespace folding, cluster by cluster (composition never crosses a grapheme cluster),
 * remembering where in the original each folded unit came from. Whitespace runs become one
 * space; leading and trailing whitespace goes.
 */
function fold(original: string): Folded {
  const out: Folded = { text: '', start: [], end: [], clusterStart: [], clusterEnd: [] };
  let cp = 0;
  for (const { segment } of graphemes.segment(original)) {
    const length = [...segment].length;
    if (WHITESPACE.test(segment)) {
      const last = out.text.length - 1;
      if (last >= 0 && out.text[last] === ' ') out.end[last] = cp + length;
      else if (last >= 0) push(out, ' ', cp, cp + length);
    } else {
      push(out, segment.normalize('NFC'), cp, cp + length);
    }
    cp += length;
  }
  if (out.text.endsWith(' ')) {
    for (const list of [out.start, out.end, out.clusterStart, out.clusterEnd]) list.pop();
    out.text = out.text.slice(0, -1);
  }
  return out;
}

function push(out: Folded, units: string, start: number, end: number) {
  for (let i = 0; i < units.length; i++) {
    out.start.push(start);
    out.end.push(end);
    out.clusterStart.push(i === 0);
    out.clusterEnd.push(i === units.length - 1);
  }
  out.text += units;
}

/** The folded form of a quote the model gave. */
export function foldQuote(quote: string): string {
  return fold(quote).text;
}

export interface VerifiedQuote {
  quote: string;
  start: number;
  end: number;
}

/**
 * Where `quote` occurs in `text` after folding, as code-point offsets into `text`, with the
 * stored words it covers; null when it does not occur (or is empty). A match must cover whole
 * characters: "e" does not match inside "é".
 */
export function verifyQuote(text: string, quote: string): VerifiedQuote | null {
  return quoteFinder(text)(quote);
}

/**
 * `verifyQuote` for many quotes of one text: the text is folded (segmented into grapheme
 * clusters, the costly part) once, on the first quote, not once per quote.
 */
export function quoteFinder(text: string): (quote: string) => VerifiedQuote | null {
  let hay: Folded | undefined;
  let codePoints: string[] | undefined;
  return (quote) => {
    const needle = foldQuote(quote);
    if (needle.length === 0) return null;
    hay ??= fold(text);
    for (let at = hay.text.indexOf(needle); at >= 0; at = hay.text.indexOf(needle, at + 1)) {
      const last = at + needle.length - 1;
      if (!hay.clusterStart[at] || !hay.clusterEnd[last]) continue;
      const start = hay.start[at]!;
      const end = hay.end[last]!;
      codePoints ??= [...text];
      return { quote: codePoints.slice(start, end).join(''), start, end };
    }
    return null;
  };
}
