/**
 * The deterministic check that keeps the interviewer off protected characteristics and their
 * proxies (PRODUCT.md §12): a follow-up the AI wrote is dropped when it mentions any term below,
 * and the next scripted question follows. It errs on the side of dropping: a lost follow-up costs
 * a little evidence, a question about a candidate's family or health is unlawful to ask.
 *
 * A follow-up is checked against its interview's language and against English, the language a
 * model falls back to when it strays. Not every list against every text: German "Kind" (child) is
 * English "kind" (sort), English "alter" is German "Alter" (age). Matching is on folded text (NFKC, lower case, no
 * diacritics, one space between words) at word starts; a term ending in `*` also matches longer
 * words (German compounds, English inflections).
 */

export type ProtectedTopic =
  | 'age'
  | 'family'
  | 'pregnancy_children'
  | 'marital_status'
  | 'health_disability'
  | 'religion'
  | 'origin'
  | 'citizenship'
  | 'sexual_orientation'
  | 'gender_identity'
  | 'union_membership'
  | 'political_opinion'
  | 'criminal_record';

type TermLists = Record<ProtectedTopic, readonly string[]>;

const ENGLISH: TermLists = {
  age: ['age', 'ages', 'aged', 'how old', 'older', 'younger', 'born', 'birthday*', 'birth date', 'date of birth', 'year of birth', 'retirement*', 'retire', 'retiring', 'plan to retire', 'graduation year', 'year did you graduate', 'your generation'],
  family: ['family', 'families', 'relatives', 'parents', 'your mother', 'your father', 'caregiv*', 'caring for', 'your partner', 'life partner', 'boyfriend*', 'girlfriend*'],
  pregnancy_children: ['pregnan*', 'maternity', 'paternity', 'parental leave', 'child', 'children', 'childcare', 'childbirth', 'kid', 'kids', 'baby', 'babies', 'daycare', 'nanny', 'start a family'],
  marital_status: ['married', 'marry', 'marriage', 'marital', 'spouse*', 'husband*', 'wife', 'wives', 'divorc*', 'widow*', 'engaged to', 'fiance*', 'single parent', 'maiden name', 'wedding*', 'honeymoon*'],
  health_disability: ['health', 'healthy', 'illness*', 'ill', 'sick', 'sickness', 'disease*', 'disab*', 'handicap*', 'medical', 'medication*', 'diagnos*', 'therapy', 'therapist*', 'mental health', 'mental illness*', 'depression*', 'anxiety disorder*', 'menopaus*', 'injur*', 'chronic', 'hospitali?ed', 'hospitali?ation*', 'wheelchair*', 'impairment*', 'accommodation for'],
  religion: ['religio*', 'faith', 'church*', 'mosque*', 'synagogue*', 'temple*', 'pray*', 'worship*', 'god', 'gods', 'christian*', 'muslim*', 'islam*', 'jewish', 'jew', 'jews', 'hindu*', 'buddhis*', 'sikh*', 'atheis*', 'sabbath', 'ramadan', 'kosher', 'halal', 'holy day*', 'religious holiday*'],
  origin: ['nationality', 'nationalities', 'ethnic*', 'race', 'races', 'racial', 'your origin*', 'ethnic origin*', 'national origin*', 'country of origin', 'ancestr*', 'heritage', 'native language', 'native speaker', 'mother tongue', 'first language', 'accent', 'where are you from', 'where were you born', 'where did you grow up', 'birthplace', 'country of birth', 'immigrant*', 'refugee*', 'asylum', 'caste', 'castes', 'skin colo*'],
  citizenship: ['citizen*', 'visa', 'visas', 'green card', 'work permit*', 'immigration', 'passport*', 'residency', 'resident status', 'authori?ed to work', 'work authori?ation', 'right to work', 'visa sponsor*'],
  sexual_orientation: ['sexual*', 'sexuality', 'gay', 'lesbian*', 'bisexual*', 'homosexual*', 'heterosexual*', 'queer', 'lgbt*'],
  gender_identity: ['gender*', 'transgender*', 'trans', 'nonbinary', 'non binary', 'pronoun*', 'sex', 'male', 'female', 'man or a woman', 'man or woman'],
  union_membership: ['union', 'unions', 'unioni?e*', 'trade union*', 'labor union*', 'labour union*', 'collective bargaining', 'shop steward*'],
  political_opinion: ['politic*', 'vote', 'voted', 'voting', 'voter*', 'election*', 'democrat*', 'republican*', 'socialis*', 'communis*', 'political party', 'political parties', 'activis*', 'protest*'],
  criminal_record: ['criminal*', 'crime*', 'arrest*', 'convict*', 'felon*', 'misdemeanor*', 'misdemeanour*', 'prison*', 'jail*', 'incarcerat*', 'police record', 'background check', 'offence*', 'offense*'],
};

const GERMAN: TermLists = {
  age: ['alter', 'alt sind', 'wie alt', 'alters*', 'alteren', 'alterer', 'junger', 'jungeren', 'geboren', 'geburt*', 'jahrgang', 'rente', 'renten*', 'ruhestand', 'pension*', 'ihre generation'],
  family: ['familie*', 'familien*', 'angehorige*', 'verwandt*', 'eltern', 'mutter', 'vater', 'pflegebedurftig*', 'angehorige pflegen', 'ihr partner', 'ihre partnerin', 'lebenspartner*', 'lebensgefahrt*', 'ihr freund', 'ihre freundin'],
  pregnancy_children: ['schwanger*', 'mutterschutz', 'mutterschaft*', 'elternzeit', 'elterngeld', 'kind', 'kinder*', 'kindes', 'baby*', 'kita*', 'nachwuchs', 'familienplanung'],
  marital_status: ['verheiratet', 'heirat*', 'hochzeit*', 'flitterwochen', 'ehe', 'ehemann', 'ehefrau', 'ehepartner*', 'ehegatt*', 'familienstand', 'ledig', 'geschieden', 'scheidung*', 'verwitwet', 'verlobt*', 'alleinerziehend*', 'geburtsname'],
  health_disability: ['gesundheit*', 'gesund', 'krank*', 'erkrank*', 'behinder*', 'schwerbehinder*', 'medizin*', 'medikament*', 'diagnos*', 'therapie*', 'psychisch*', 'depression*', 'wechseljahr*', 'chronisch*', 'arbeitsunfahig*', 'rollstuhl*', 'beeintrachtigung*'],
  religion: ['religio*', 'glaubensrichtung*', 'glaubensgemeinschaft*', 'ihr glaube', 'ihren glauben', 'konfession*', 'kirche*', 'kirchen*', 'moschee*', 'synagoge*', 'tempel', 'beten', 'gebet*', 'gott', 'christ', 'christen*', 'christlich*', 'muslim*', 'muslimisch*', 'islam*', 'judisch*', 'jude', 'juden', 'hindu*', 'buddhis*', 'atheis*', 'ramadan', 'religiose feiertag*'],
  origin: ['herkunft*', 'staatsangehorig*', 'nationalitat*', 'ethnisch*', 'ethnie*', 'rasse', 'abstammung', 'muttersprache*', 'erstsprache', 'ihr akzent', 'ihren akzent', 'woher kommen sie', 'wo sind sie geboren', 'wo sind sie aufgewachsen', 'geburtsort', 'geburtsland', 'migrationshintergrund', 'einwander*', 'fluchtling*', 'gefluchtet*', 'asyl*', 'kaste', 'hautfarbe'],
  citizenship: ['staatsburger*', 'visum', 'visa', 'aufenthalts*', 'arbeitserlaubnis*', 'reisepass*', 'einburgerung*', 'greencard'],
  sexual_orientation: ['sexuell*', 'sexualitat', 'homosexuell*', 'heterosexuell*', 'bisexuell*', 'schwul*', 'lesbisch*', 'queer', 'lgbt*'],
  gender_identity: ['geschlecht*', 'transgender*', 'trans', 'nichtbinar*', 'divers', 'pronomen', 'mann oder frau'],
  union_membership: ['gewerkschaft*', 'betriebsrat*', 'tarifverhandlung*', 'verdi', 'ig metall'],
  political_opinion: ['politik*', 'politisch*', 'partei', 'parteien', 'parteimitglied*', 'wahlverhalten', 'wahlkampf*', 'bundestagswahl*', 'landtagswahl*', 'aktivis*'],
  criminal_record: ['vorstraf*', 'vorbestraft', 'fuhrungszeugnis*', 'strafregister*', 'straftat*', 'kriminell*', 'verhaftet', 'festgenommen', 'gefangnis*', 'haft', 'haftstraf*', 'verurteil*'],
};

/** The supported languages' lists. */
export const FORBIDDEN_TERMS: Readonly<Record<'en' | 'de', TermLists>> = { en: ENGLISH, de: GERMAN };

/**
 * Common phrases of work talk that contain a listed word but ask nothing protected. They are
 * blanked before matching, and only as whole phrases: "race condition" is engineering, "race" is
 * not.
 */
const WORK_PHRASES = ['race condition*', 'health check*', 'healthcheck*', 'system health', 'union all', 'union type*', 'child process*', 'child component*', 'child node*', 'child element*', 'child class*', 'leader election*'];

/** NFKC, lower case, no combining marks (ä → a, é → e), ß → ss, and one space between words. */
export function foldForMatching(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll('ß', 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A term as a pattern on folded text: whole words at word starts; `*` at the end allows a longer
 * last word, and `?` stands for one letter (British and American spellings). Terms are written
 * folded already (the tests hold every list to that).
 */
function termPattern(term: string): string {
  const prefix = term.endsWith('*');
  const body = (prefix ? term.slice(0, -1) : term).replaceAll('?', '\\p{L}');
  return `(?<![\\p{L}\\p{N}])${body}${prefix ? '[\\p{L}\\p{N}]*' : ''}(?![\\p{L}\\p{N}])`;
}

interface CompiledTerm {
  topic: ProtectedTopic;
  language: 'en' | 'de';
  term: string;
  pattern: RegExp;
}

const COMPILED: readonly CompiledTerm[] = Object.entries(FORBIDDEN_TERMS).flatMap(([language, lists]) =>
  Object.entries(lists).flatMap(([topic, terms]) =>
    terms.map((term) => ({ topic: topic as ProtectedTopic, language: language as 'en' | 'de', term, pattern: new RegExp(termPattern(term), 'u') })),
  ),
);
const WORK_PHRASE_PATTERN = new RegExp(WORK_PHRASES.map(termPattern).join('|'), 'gu');

export interface ForbiddenTopicMatch {
  topic: ProtectedTopic;
  /** The listed term that matched, as written in the list (never the follow-up's text). */
  term: string;
  language: 'en' | 'de';
}

export type InterviewerLanguage = keyof typeof FORBIDDEN_TERMS;

/**
 * Per interview language, one pattern of every term checked for it: most follow-ups touch no
 * topic, and one scan of the text answers that, where the terms one by one took about two
 * hundred (a few per cent of recruiting's CPU per turn in bench:interview's profile). The terms'
 * own patterns then find the first in list order, as before.
 */
const ANY_TERM = Object.fromEntries(
  (Object.keys(FORBIDDEN_TERMS) as InterviewerLanguage[]).map((language) => [
    language,
    new RegExp(COMPILED.filter((t) => t.language === language || t.language === 'en').map((t) => `(?:${t.pattern.source})`).join('|'), 'u'),
  ]),
) as Record<InterviewerLanguage, RegExp>;

/**
 * The first protected topic a follow-up touches, in its interview's language or in English, or
 * null when it touches none.
 */
export function findForbiddenTopic(text: string, language: InterviewerLanguage): ForbiddenTopicMatch | null {
  const folded = foldForMatching(text).replace(WORK_PHRASE_PATTERN, ' ');
  if (!ANY_TERM[language].test(folded)) return null;
  for (const term of COMPILED) {
    if ((term.language === language || term.language === 'en') && term.pattern.test(folded)) return { topic: term.topic, term: term.term, language: term.language };
  }
  return null;
}
