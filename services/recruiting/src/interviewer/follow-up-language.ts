import { foldForMatching, type InterviewerLanguage } from './forbidden-topics.js';

/**
 * Whether a follow-up is written in its interview's language (PRODUCT.md §12: the interviewer
 * asks in the candidate's language). A deterministic check, as the forbidden-topic one is: the
 * topic lists exist for the supported languages only, so a follow-up in any other language would
 * pass them unread ("¿Cuántos años tiene usted?"). A follow-up reads as its language when it holds
 * two different common words of it (folded: no accents, lower case); one that does not is an
 * invalid output, and the next scripted question follows. A follow-up of one word ("Why?") is
 * dropped too: a lost follow-up costs a little evidence, an unread one may be unlawful.
 */
const COMMON_WORDS: Readonly<Record<InterviewerLanguage, ReadonlySet<string>>> = {
  en: new Set([
    'a', 'an', 'the', 'and', 'or', 'but', 'so', 'then', 'you', 'your', 'yours', 'yourself', 'me', 'we', 'it', 'that', 'this', 'those', 'these', 'there',
    'is', 'are', 'was', 'were', 'be', 'been', 'do', 'did', 'does', 'have', 'has', 'had', 'can', 'could', 'would', 'will', 'should', 'might',
    'what', 'how', 'why', 'when', 'where', 'which', 'who', 'whom',
    'of', 'to', 'for', 'with', 'in', 'on', 'at', 'by', 'from', 'about', 'as', 'into', 'after', 'before',
    'tell', 'give', 'describe', 'explain', 'walk', 'more', 'example', 'specific', 'exactly', 'any',
  ]),
  de: new Set([
    'sie', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'ihnen', 'sich', 'selbst', 'wir', 'es', 'dies', 'diese', 'dieser', 'dieses', 'diesem', 'diesen',
    'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'und', 'oder', 'aber', 'dann', 'dass', 'nicht', 'auch', 'noch',
    'ist', 'sind', 'war', 'waren', 'haben', 'hat', 'hatten', 'konnen', 'konnten', 'wurden', 'wurde', 'werden', 'mochten', 'sollten',
    'was', 'wie', 'warum', 'wann', 'wo', 'woran', 'wodurch', 'welche', 'welcher', 'welches', 'welchen', 'welchem', 'wer',
    'mit', 'von', 'zu', 'zum', 'zur', 'bei', 'fur', 'uber', 'auf', 'im', 'am', 'nach', 'vor', 'dabei', 'genau', 'beispiel', 'konkret', 'konkretes', 'mehr',
  ]),
};

export function readsAsLanguage(text: string, language: InterviewerLanguage): boolean {
  const common = COMMON_WORDS[language];
  const seen = new Set<string>();
  for (const word of foldForMatching(text).split(' ')) if (common.has(word) && seen.add(word).size >= 2) return true;
  return false;
}
