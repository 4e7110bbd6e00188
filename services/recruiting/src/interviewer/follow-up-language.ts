import { foldForMatching, type InterviewerLanguage } from './forbidden-topics.js';

/**
 * Whether a follow-up is written in its interview's language (PRODUCT.md §12: the interviewer
 * asks in the candidate's language). A deterministic check, as the forbidden-topic one is: the
 * topic lists exist for the supported languages only, so a follow-up in any other language, or
 * with a clause in one, would pass them unread ("Can you tell me, ¿cuántos años tiene usted?").
 * On the folded text the topic check reads (no accents, lower case), a follow-up reads as its
 * language when
 * - it has no word that marks another language (FOREIGN: frequent words of the languages a model
 *   strays into, none of them an English or German word or a common tech token), and no ¿ or ¡;
 * - it has more common words of its language than of the other supported one (words of both,
 *   such as `was` and `in`, count for both);
 * - and it has two different common words of its language, or is a short question (2 to 6 words)
 *   that starts with a question word of it ("Which metrics improved?", "Welche Tools?").
 * A follow-up that does not read as its language is an invalid output, and the next scripted
 * question follows: a lost follow-up costs a little evidence, an unread one may be unlawful.
 */
const COMMON: Readonly<Record<InterviewerLanguage, ReadonlySet<string>>> = {
  en: new Set([
    'a', 'an', 'the', 'and', 'or', 'but', 'so', 'then', 'than', 'if', 'not', 'you', 'your', 'yours', 'yourself', 'me', 'we', 'us', 'our', 'they', 'them', 'their',
    'it', 'that', 'this', 'those', 'these', 'there', 'other', 'others', 'some', 'any', 'anything', 'something', 'else', 'all', 'each', 'own', 'most', 'much', 'many',
    'is', 'are', 'was', 'were', 'be', 'been', 'do', 'did', 'does', 'have', 'has', 'had', 'can', 'could', 'would', 'will', 'should', 'might',
    'what', 'how', 'why', 'when', 'where', 'which', 'who', 'whom', 'whose',
    'of', 'to', 'for', 'with', 'in', 'on', 'at', 'by', 'from', 'about', 'as', 'into', 'after', 'before', 'up', 'out', 'back', 'because', 'just', 'still',
    'tell', 'give', 'describe', 'explain', 'walk', 'more', 'example', 'specific', 'specifically', 'exactly', 'next', 'long', 'often',
    'went', 'got', 'made', 'happened', 'changed', 'worked', 'well', 'wrong', 'like', 'such',
  ]),
  de: new Set([
    'sie', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'ihnen', 'sich', 'selbst', 'wir', 'es', 'ich', 'man', 'du', 'dein', 'deine', 'deinen', 'deinem', 'deiner', 'dich', 'dir',
    'dies', 'diese', 'dieser', 'dieses', 'diesem', 'diesen', 'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer',
    'und', 'oder', 'aber', 'dann', 'dass', 'nicht', 'auch', 'noch', 'wenn', 'weil', 'ob', 'durch', 'ohne',
    'ist', 'sind', 'war', 'waren', 'haben', 'hat', 'hatten', 'hast', 'bist', 'warst', 'hattest', 'kannst', 'konnen', 'konnten', 'wurden', 'wurde', 'werden', 'mochten', 'sollten', 'gab', 'gibt',
    'was', 'wie', 'warum', 'wieso', 'weshalb', 'inwiefern', 'wann', 'wo', 'woran', 'wodurch', 'wozu', 'welche', 'welcher', 'welches', 'welchen', 'welchem', 'wer', 'wen', 'wem',
    'mit', 'von', 'zu', 'zum', 'zur', 'bei', 'fur', 'uber', 'auf', 'im', 'am', 'nach', 'vor', 'seit', 'daraus', 'danach', 'darauf', 'davon', 'dafur', 'dabei',
    'genau', 'beispiel', 'konkret', 'konkretes', 'mehr', 'lange', 'oft', 'viel', 'viele', 'gut', 'kam', 'lief', 'ging',
  ]),
};

/** Question words a short follow-up may start with. */
const QUESTION_WORDS: Readonly<Record<InterviewerLanguage, ReadonlySet<string>>> = {
  en: new Set(['what', 'which', 'why', 'how', 'who', 'whom', 'whose', 'where', 'when', 'and', 'so', 'any', 'anything']),
  de: new Set(['was', 'welche', 'welcher', 'welches', 'welchen', 'welchem', 'warum', 'wieso', 'weshalb', 'wie', 'wer', 'wen', 'wem', 'wo', 'wann', 'woran', 'wodurch', 'wozu', 'inwiefern', 'und', 'gab']),
};

/**
 * Words that mark a language other than English and German: Spanish, French, Italian, Dutch,
 * Portuguese, Polish, Turkish. Left out on purpose: words that are also English or German, or
 * tech tokens (`la`, `est`, `et`, `ce`, `di`, `il`, `dos`, `das`, `du`, `tu`, `ve`, `de`, `com`,
 * `os`, `var`, `met`, `van`, `comment`, `los`, `las`, `el`, `del`, `su`).
 */
const FOREIGN = new Set([
  'que', 'usted', 'ustedes', 'tiene', 'tienes', 'una', 'uno', 'por', 'para', 'como', 'cual', 'cuales', 'cuantos', 'cuantas', 'donde', 'cuando', 'porque', 'muy', 'esta', 'este', 'fue', 'hizo', 'puede', 'eres', 'estas', 'casado', 'casada', 'anos',
  'vous', 'les', 'une', 'avez', 'etes', 'quel', 'quelle', 'quels', 'quelles', 'pourquoi', 'qui', 'ou', 'avec', 'pour', 'dans', 'votre', 'vos', 'tes', 'sont', 'fait', 'pouvez', 'enfants', 'marie',
  'che', 'sei', 'hai', 'perche', 'quale', 'qual', 'cosa', 'sono', 'della', 'lei', 'suo', 'tuo', 'tua', 'anni', 'sposato', 'sposata', 'figli', 'famiglia', 'casa', 'hijos', 'familia', 'filhos',
  'uw', 'het', 'een', 'bent', 'heeft', 'hebt', 'zijn', 'wat', 'hoe', 'waarom', 'jij', 'jullie', 'welke', 'hoeveel', 'niet', 'ook', 'deze', 'dit', 'voor', 'naar', 'kunt', 'kun', 'wilt', 'oud',
  'voce', 'voces', 'seu', 'seus', 'suas', 'quais', 'quantos', 'quantas', 'uma', 'nos', 'foi', 'tem', 'isso', 'pode', 'idade',
  'czy', 'jest', 'jak', 'jaki', 'jaka', 'jakie', 'ile', 'dlaczego', 'gdzie', 'kiedy', 'pani', 'nie', 'masz', 'byl', 'byla', 'bylo', 'twoja', 'twoj', 'pana', 'lat',
  'neden', 'nasil', 'kac', 'misiniz', 'musunuz', 'bir', 'yok', 'sizin', 'siz',
]);

const OTHER: Readonly<Record<InterviewerLanguage, InterviewerLanguage>> = { en: 'de', de: 'en' };

export function readsAsLanguage(text: string, language: InterviewerLanguage): boolean {
  if (/[¿¡]/u.test(text)) return false;
  const words = foldForMatching(text).split(' ').filter(Boolean);
  if (words.some((word) => FOREIGN.has(word))) return false;
  const own = new Set(words.filter((word) => COMMON[language].has(word))).size;
  const other = new Set(words.filter((word) => COMMON[OTHER[language]].has(word))).size;
  if (own <= other) return false;
  return own >= 2 || (words.length >= 2 && words.length <= 6 && QUESTION_WORDS[language].has(words[0]!));
}
