/**
 * Media types as RFC 9110 reads them (§8.3.1, §5.6.6; issue 18 item 5):
 *
 *     media-type = type "/" subtype parameters
 *     parameters = *( OWS ";" OWS [ parameter ] )
 *     parameter  = token "=" ( token / quoted-string )
 *
 * Type, subtype and parameter names are case-insensitive; a value may be quoted
 * (`charset="UTF-8"`), and `charset`'s value is case-insensitive too (RFC 2046 §4.1.2).
 * Hand-written because neither candidate reads RFC 9110: the `content-type` package implements
 * RFC 7231's grammar, which refuses the empty parameters RFC 9110 allows (`application/json;`),
 * and Node 20's `util.MIMEType` is experimental and follows WHATWG's sniffing rules, which skip a
 * malformed parameter without a word.
 */
export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  /** Parameters by lower-cased name, values unquoted. */
  parameters: Map<string, string>;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t !#-\\[\\]-~\\x80-\\xFF]|\\\\[\\t !-~\\x80-\\xFF])*"';
const ESSENCE = new RegExp(`^(${TOKEN})/(${TOKEN})`, 'y');
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:(${TOKEN})=(${TOKEN}|${QUOTED_STRING}))?`, 'y');

/** The media type of a header value, or null when it does not follow the grammar (or repeats a parameter). */
export function parseMediaType(header: string): MediaType | null {
  const value = header.replace(/^[ \t]+|[ \t]+$/g, '');
  ESSENCE.lastIndex = 0;
  const essence = ESSENCE.exec(value);
  if (!essence) return null;
  const parameters = new Map<string, string>();
  let at = ESSENCE.lastIndex;
  while (at < value.length) {
    PARAMETER.lastIndex = at;
    const match = PARAMETER.exec(value);
    if (!match || PARAMETER.lastIndex === at) return null;
    at = PARAMETER.lastIndex;
    const [, name, raw] = match;
    if (name === undefined || raw === undefined) continue; // an empty parameter: `;;`
    const key = name.toLowerCase();
    // Two values for one name cannot both hold: which one a reader takes is a guess.
    if (parameters.has(key)) return null;
    parameters.set(key, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return { essence: `${essence[1]}/${essence[2]}`.toLowerCase(), parameters };
}

const JSON_ESSENCE = /^application\/([a-z0-9.+-]*\+)?json$/;
/** Names of UTF-8: the IANA one and the alias clients send (`charset=utf8`). */
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Why a `Content-Type` is not JSON the gateway reads (the message of a 415), or null when it is:
 * `application/json` or `application/*+json`, with no charset or a name of UTF-8.
 */
export function jsonMediaTypeProblem(header: string | undefined): string | null {
  if (header === undefined) return 'Send the body as application/json.';
  const type = parseMediaType(header);
  // Unreadable (malformed, or a parameter given twice): naming its type alone would read as a contradiction.
  if (!type) return `The Content-Type ${JSON.stringify(header.trim().slice(0, 100))} could not be read (malformed, or a parameter given twice); send application/json.`;
  if (!JSON_ESSENCE.test(type.essence)) return `Send the body as application/json, not ${type.essence.slice(0, 100)}.`;
  const charset = type.parameters.get('charset');
  if (charset !== undefined && !UTF8.has(charset.toLowerCase())) return 'Send the body in UTF-8 (charset=utf-8), the only charset accepted.';
  return null;
}
