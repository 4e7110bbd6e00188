import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { verifyQuote } from './quotes.js';

const slice = (text: string, start: number, end: number) => [...text].slice(start, end).join('');

describe('quote verification (NFC and whitespace folding, code-point offsets)', () => {
  it('finds a verbatim quote with its code-point offsets', () => {
    const text = 'I led the migration. It took six weeks.';
    assert.deepEqual(verifyQuote(text, 'It took six weeks.'), { quote: 'It took six weeks.', start: 21, end: 39 });
  });

  it('keeps a quote that differs only in whitespace, with offsets into the stored text', () => {
    const text = 'We  shipped\n the   fix\ton Friday.';
    const v = verifyQuote(text, ' shipped the fix on  Friday ');
    assert.ok(v);
    assert.equal(slice(text, v.start, v.end), v.quote);
    assert.equal(v.quote, 'shipped\n the   fix\ton Friday');
  });

  it('keeps a quote that differs only in Unicode normalisation (NFD text, NFC quote and back)', () => {
    const nfd = 'Caf\u0065\u0301 menu: re\u0301sume\u0301 reviewed by Zoë.';
    const v = verifyQuote(nfd, 'résumé reviewed');
    assert.ok(v);
    assert.equal(v.quote, 're\u0301sume\u0301 reviewed');
    assert.equal(slice(nfd, v.start, v.end), v.quote);
    assert.equal(v.start, 12);
    const nfc = 'Ein Café für Zoë'.normalize('NFC');
    assert.ok(verifyQuote(nfc, 'Cafe\u0301 für'));
  });

  it('counts code points, not UTF-16 units, before the quote', () => {
    const text = '🚀🚀 launched it';
    assert.deepEqual(verifyQuote(text, 'launched'), { quote: 'launched', start: 3, end: 11 });
  });

  it('refuses a fabricated quote, a paraphrase, a change of case and an empty quote', () => {
    const text = 'I fixed the deadlock under load.';
    assert.equal(verifyQuote(text, 'I designed the whole system'), null);
    assert.equal(verifyQuote(text, 'fixed a deadlock'), null);
    assert.equal(verifyQuote(text, 'i fixed'), null);
    assert.equal(verifyQuote(text, '   '), null);
  });

  it('does not match part of a character: "e" is not inside "é"', () => {
    assert.equal(verifyQuote('caf\u00e9', 'cafe'), null);
    assert.equal(verifyQuote('cafe\u0301', 'cafe'), null);
  });
});
