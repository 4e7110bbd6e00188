import { isUtf8 } from 'node:buffer';

/** Why a form is refused: http-errors' `status` makes the body parser answer 400 with it. */
class FormNotUtf8 extends Error {
  readonly status = 400;
  readonly type = 'form.not.utf8';
  constructor() {
    super('The form is not UTF-8.');
  }
}

/**
 * The invite page's form bodies are UTF-8 (issue 18 item 10), for `express.urlencoded`'s
 * `verify`: raw bytes that are not UTF-8 (which the parser would turn into U+FFFD), and
 * percent-escapes that do not decode to UTF-8 (`a%FFb`, which the parser would keep literally),
 * refuse the whole form before any field is read, so nothing of it is stored.
 */
export function verifyUtf8Form(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new FormNotUtf8();
  for (const pair of body.toString('utf8').split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      throw new FormNotUtf8();
    }
  }
}
