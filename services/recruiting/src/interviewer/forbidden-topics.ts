/**
 * The deterministic check that keeps the interviewer off protected characteristics and their
 * proxies (PRODUCT.md §12): a follow-up the AI wrote is dropped when it mentions any term below,
 * and the next scripted question follows. It errs on the side of dropping: a lost follow-up costs
 * a little evidence, a question about a candidate's family or health is unlawful to ask.
 *
 * A follow-up is checked against every supported language's list, whatever its interview's
 * language: a model that strays into another language must not get past the check. The few terms
 * that are everyday words of another supported language (FALSE_FRIENDS: German "Kind" (child) is
 * English "kind" (sort), German "Alter" (age) is English "alter") count only in their own
 * language's interview, or in a text that reads as their language (MARKERS: two of its function
 * words). Matching is on folded text (format characters removed, look-alike letters of other
 * scripts read as Latin, NFKC, lower case, no diacritics, one space between words) at word starts;
 * a term ending in `*` also matches longer words (German compounds, English inflections).
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
  age: ['age', 'ages', 'aged', 'how old', 'older', 'younger', 'born', 'birthday*', 'birth date', 'date of birth', 'year of birth', 'retirement*', 'retire', 'retiring', 'plan to retire', 'graduation year', 'year did you graduate', 'did you graduate', 'your graduation', 'high school', 'secondary school', 'finish school', 'finished school', 'finish high school', 'finished high school', 'left school', 'leave school', 'school leaving', 'year did you finish', 'year did you complete', 'year did you leave', 'year were you', '1950s', '1960s', '1970s', '1980s', '1990s', 'your generation', 'too old', 'too young', 'are you over', 'are you under', 'your 20s', 'your 30s', 'your 40s', 'your 50s', 'your 60s', 'your twenties', 'your thirties', 'your forties', 'your fifties', 'your sixties', 'elderly', 'generation do you belong', 'boomer*', 'millennial*', 'gen z', 'gen x', 'gen y', 'generation x', 'generation y', 'generation z', 'are you young enough', 'you young enough', 'are you old enough', 'you a digital native', 'what generation are you', 'generation are you from'],
  family: ['family', 'families', 'relatives', 'parents', 'your mother', 'your father', 'caregiv*', 'caring for', 'your partner', 'life partner', 'have a partner', 'live alone', 'living alone', 'live together', 'who do you live', 'boyfriend*', 'girlfriend*', 'mother', 'mothers', 'father', 'fathers', 'mom', 'mum', 'dad', 'parent', 'grandparent*', 'grandchild*', 'sibling*', 'household', 'depends on you', 'dependents at home', 'anyone at home'],
  pregnancy_children: ['pregnan*', 'maternity', 'paternity', 'parental leave', 'child', 'children', 'childcare', 'childbirth', 'kid', 'kids', 'baby', 'babies', 'daycare', 'nanny', 'start a family', 'little ones', 'toddler*', 'school run', 'your son', 'your sons', 'your daughter', 'your daughters', 'a son or', 'a daughter or'],
  marital_status: ['married', 'marry', 'marriage', 'marital', 'spouse*', 'husband*', 'wife', 'wives', 'divorc*', 'widow*', 'engaged to', 'fiance*', 'single parent', 'maiden name', 'wedding*', 'honeymoon*', 'are you single', 'single or', 'in a relationship', 'relationship status', 'significant other', 'dating'],
  health_disability: ['health', 'healthy', 'illness*', 'ill', 'sick', 'sickness', 'disease*', 'disab*', 'handicap*', 'medical', 'medication*', 'diagnos*', 'therapy', 'therapist*', 'mental health', 'mental illness*', 'depression*', 'anxiety disorder*', 'menopaus*', 'injur*', 'chronic', 'hospitali?ed', 'hospitali?ation*', 'wheelchair*', 'impairment*', 'accommodation for', 'hiv', 'cancer*', 'diabet*', 'surger*', 'surgical', 'adhd', 'autis*', 'dyslexi*', 'psychiatr*', 'psycholog*', 'psychotherap*', 'addict*', 'rehab', 'rehabilitation', 'alcoholi*', 'deaf*', 'hearing loss', 'blind', 'hospital', 'hospitals', 'doctor', 'doctors', 'sick leave', 'sick days', 'vaccinat*', 'epilep*', 'seizure*', 'bipolar', 'schizophren*', 'ptsd', 'long term condition*', 'longterm condition*', 'off sick', 'absent from work', 'days absent', 'absences from work', 'you off work', 'days off work', 'time off work sick'],
  religion: ['religio*', 'faith', 'church*', 'mosque*', 'synagogue*', 'temple*', 'pray*', 'worship*', 'god', 'gods', 'christian*', 'muslim*', 'islam*', 'jewish', 'jew', 'jews', 'hindu*', 'buddhis*', 'sikh*', 'atheis*', 'sabbath', 'ramadan', 'kosher', 'halal', 'holy day*', 'religious holiday*', 'catholic*', 'protestant*', 'evangelical*', 'orthodox church*', 'orthodox jew*', 'mormon*', 'baptist*', 'lutheran*', 'methodist*', 'anglican*', 'jehovah*', 'pagan*', 'spiritual*', 'do you celebrate', 'holidays do you', 'christmas', 'easter', 'diwali', 'hanukkah', 'chanukah', 'eid', 'passover', 'yom kippur', 'rosh hashanah', 'bible*', 'quran', 'koran', 'torah', 'hijab*', 'headscarf', 'headscarves', 'turban*', 'kippah', 'yarmulke*', 'devout', 'churchgoer*', 'believe in god', 'are you a believer', 'you a believer in god', 'a religious believer', 'agnostic or', 'are you agnostic'],
  origin: ['nationality', 'nationalities', 'ethnic*', 'race', 'races', 'racial', 'your origin*', 'ethnic origin*', 'national origin*', 'country of origin', 'ancestr*', 'heritage', 'native language', 'native speaker', 'mother tongue', 'first language', 'accent', 'where are you from', 'where were you born', 'where did you grow up', 'birthplace', 'country of birth', 'immigrant*', 'refugee*', 'asylum', 'caste', 'castes', 'skin colo*', 'originally from', 'home country', 'home countries', 'hometown*', 'home town*', 'grew up', 'grow up', 'growing up', 'where you are from', 'are you black', 'are you white', 'black people', 'white people', 'black person', 'white person', 'person of colo?r', 'people of colo?r', 'hispanic*', 'latino*', 'latina*', 'latinx', 'asian*', 'caucasian*', 'african*', 'arab*', 'indigenous', 'aboriginal*', 'native american*', 'roma', 'gypsy', 'gypsies'],
  citizenship: ['citizen*', 'visa', 'visas', 'green card', 'work permit*', 'immigration', 'passport*', 'residency', 'resident status', 'authori?ed to work', 'work authori?ation', 'right to work', 'visa sponsor*'],
  sexual_orientation: ['sexual*', 'sexuality', 'gay', 'lesbian*', 'bisexual*', 'homosexual*', 'heterosexual*', 'queer', 'lgbt*', 'are you straight', 'same sex', 'straight or gay', 'attracted to men', 'attracted to women'],
  gender_identity: ['gender*', 'transgender*', 'trans', 'nonbinary', 'non binary', 'pronoun*', 'sex', 'male', 'female', 'man or a woman', 'man or woman', 'identify as male', 'identify as female', 'identify as nonbinary', 'identify as non binary', 'identify as a woman', 'identify as a man', 'are you a woman', 'are you a man'],
  union_membership: ['union', 'unions', 'unioni?e*', 'trade union*', 'labor union*', 'labour union*', 'collective bargaining', 'shop steward*', 'strike', 'strikes', 'picket*', 'walkout*', 'works council*'],
  political_opinion: ['politic*', 'vote', 'voted', 'voting', 'voter*', 'election*', 'democrat*', 'republican*', 'socialis*', 'communis*', 'political party', 'political parties', 'activis*', 'protest*', 'conservative or liberal', 'liberal or conservative', 'left wing*', 'right wing*', 'leftist*', 'current government', 'think of the government', 'your government', 'support the government'],
  criminal_record: ['criminal*', 'crime*', 'arrest*', 'convict*', 'felon*', 'misdemeanor*', 'misdemeanour*', 'prison*', 'jail*', 'incarcerat*', 'police record', 'background check', 'offence*', 'offense*', 'trouble with the law', 'the police', 'police officer*'],
};

const GERMAN: TermLists = {
  age: ['alter', 'alt sind', 'wie alt', 'alters*', 'alteren', 'alterer', 'junger', 'jungeren', 'geboren', 'geburt*', 'jahrgang', 'rente', 'renten*', 'ruhestand', 'pension*', 'ihre generation', 'zu alt', 'zu jung', 'sind sie uber', 'sind sie unter', 'lebensjahr*', 'abitur*', 'matura', 'schulabschluss*', 'schulzeit', 'schule abgeschlossen', 'schule beendet', 'schule verlassen', 'abschlussjahr*', 'jahr ihres abschlusses', 'wann haben sie ihren abschluss', 'wann haben sie ihr studium', 'jung genug', 'alt genug', 'digital native*', 'generation sind sie', 'boomer*', 'millennial*', 'gen z', 'generation z', 'welcher generation gehoren'],
  family: ['familie*', 'familien*', 'angehorige*', 'verwandt*', 'eltern', 'mutter', 'vater', 'pflegebedurftig*', 'angehorige pflegen', 'ihr partner', 'ihre partnerin', 'lebenspartner*', 'lebensgefahrt*', 'ihr freund', 'ihre freundin', 'einen partner', 'eine partnerin', 'ihren partner', 'ihrer partnerin', 'ihrem partner', 'geschwister', 'grosseltern', 'enkel*', 'mama', 'papa'],
  pregnancy_children: ['schwanger*', 'mutterschutz', 'mutterschaft*', 'elternzeit', 'elterngeld', 'kind', 'kinder*', 'kindes', 'baby*', 'kita*', 'nachwuchs', 'familienplanung', 'betreut ihre kleinen', 'ihre kleinen kinder', 'ihr sohn', 'ihren sohn', 'ihrem sohn', 'ihre sohne', 'ihre tochter', 'ihrer tochter'],
  marital_status: ['verheiratet', 'heirat*', 'hochzeit*', 'flitterwochen', 'ehe', 'ehemann', 'ehefrau', 'ehepartner*', 'ehegatt*', 'familienstand', 'ledig', 'geschieden', 'scheidung*', 'verwitwet', 'verlobt*', 'alleinerziehend*', 'geburtsname', 'in einer beziehung', 'beziehungsstatus', 'single', 'feste freundin', 'festen freund', 'fester freund'],
  health_disability: ['gesundheit*', 'gesund', 'krank*', 'erkrank*', 'behinder*', 'schwerbehinder*', 'medizin*', 'medikament*', 'diagnos*', 'therapie*', 'psychisch*', 'depression*', 'wechseljahr*', 'chronisch*', 'arbeitsunfahig*', 'rollstuhl*', 'beeintrachtigung*', 'psychotherap*', 'psychiatr*', 'psycholog*', 'in behandlung', 'arzt', 'arztin', 'arzte', 'krebs*', 'diabet*', 'hiv', 'suchterkrank*', 'alkoholi*', 'schwerhorig*', 'gehorlos*', 'blind', 'adhs', 'autis*', 'legasthen*', 'epilep*', 'fehltage', 'langzeiterkrank*', 'vorerkrank*', 'ihre fehlzeit*'],
  religion: ['religio*', 'glaubensrichtung*', 'glaubensgemeinschaft*', 'ihr glaube', 'ihren glauben', 'konfession*', 'kirche*', 'kirchen*', 'moschee*', 'synagoge*', 'tempel', 'beten', 'gebet*', 'gott', 'christ', 'christen*', 'christlich*', 'muslim*', 'muslimisch*', 'islam*', 'judisch*', 'jude', 'juden', 'hindu*', 'buddhis*', 'atheis*', 'ramadan', 'religiose feiertag*', 'katholi*', 'evangelisch*', 'protestant*', 'orthodox*', 'freikirch*', 'zeugen jehovas', 'konfessionslos*', 'weihnachten', 'ostern', 'kopftuch*', 'bibel*', 'koran', 'tora', 'welche feiertage', 'feiertage feiern', 'glaubig*', 'an gott'],
  origin: ['herkunft*', 'staatsangehorig*', 'nationalitat*', 'ethnisch*', 'ethnie*', 'rasse', 'abstammung', 'muttersprache*', 'erstsprache', 'ihr akzent', 'ihren akzent', 'woher kommen sie', 'wo sind sie geboren', 'wo sind sie aufgewachsen', 'geburtsort', 'geburtsland', 'migrationshintergrund', 'einwander*', 'fluchtling*', 'gefluchtet*', 'asyl*', 'kaste', 'hautfarbe', 'heimatland*', 'aufgewachsen', 'auslander*', 'schwarze', 'dunkelhautig*'],
  citizenship: ['staatsburger*', 'visum', 'visa', 'aufenthalts*', 'arbeitserlaubnis*', 'reisepass*', 'einburgerung*', 'greencard'],
  sexual_orientation: ['sexuell*', 'sexualitat', 'homosexuell*', 'heterosexuell*', 'bisexuell*', 'schwul*', 'lesbisch*', 'queer', 'lgbt*', 'hetero', 'gleichgeschlechtlich*'],
  gender_identity: ['geschlecht*', 'transgender*', 'trans', 'nichtbinar*', 'divers', 'pronomen', 'mann oder frau', 'frau oder mann', 'identifizieren sie sich'],
  union_membership: ['gewerkschaft*', 'betriebsrat*', 'tarifverhandlung*', 'verdi', 'ig metall', 'streik*'],
  political_opinion: ['politik*', 'politisch*', 'partei', 'parteien', 'parteimitglied*', 'wahlverhalten', 'wahlkampf*', 'bundestagswahl*', 'landtagswahl*', 'aktivis*', 'linksextrem*', 'rechtsextrem*', 'aktuelle regierung', 'aktuellen regierung', 'von der regierung'],
  criminal_record: ['vorstraf*', 'vorbestraft', 'fuhrungszeugnis*', 'strafregister*', 'straftat*', 'kriminell*', 'verhaftet', 'festgenommen', 'gefangnis*', 'haft', 'haftstraf*', 'verurteil*', 'mit der polizei', 'polizeilich*'],
};

/** The supported languages' lists. */
export const FORBIDDEN_TERMS: Readonly<Record<'en' | 'de', TermLists>> = { en: ENGLISH, de: GERMAN };

/**
 * Listed terms that are everyday words of another supported language (German "Kind" and English
 * "kind", German "Eid" (oath) and English "Eid"): they count in their own language's interview,
 * or where the text reads as their language.
 */
export const FALSE_FRIENDS: Readonly<Record<'en' | 'de', readonly string[]>> = {
  en: ['eid'],
  de: ['kind', 'alter', 'alters*', 'mutter', 'divers', 'haft', 'single', 'orthodox*'],
};

/** Function words of each language: a text with two different ones reads as that language. */
export const MARKERS: Readonly<Record<'en' | 'de', readonly string[]>> = {
  en: ['you', 'your', 'the', 'and', 'are', 'is', 'do', 'did', 'have', 'what', 'how', 'where', 'when', 'which', 'of', 'to', 'for', 'with'],
  de: ['sie', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'haben', 'hatten', 'sind', 'waren', 'und', 'der', 'das', 'ein', 'eine', 'einen', 'einer', 'nicht', 'wie', 'wo', 'woher', 'auch', 'oder', 'ist', 'bei', 'fur', 'uber', 'zu', 'noch'],
};

/**
 * Common phrases of work talk that contain a listed word but ask nothing protected. They are
 * blanked before matching, and only as whole phrases: "race condition" is engineering, "race" is
 * not.
 */
export const WORK_PHRASES: readonly string[] = [
  'race condition*', 'health check*', 'healthcheck*', 'system health', 'union all', 'union type*', 'child process*', 'child component*', 'child node*', 'child element*', 'child class*', 'leader election*',
  'parent process*', 'parent component*', 'parent class*', 'parent node*', 'parent element*', 'parent compan*', 'parent task*', 'parent ticket*', 'parent issue*', 'parent director*', 'parent folder*', 'parent span*', 'parent commit*', 'parent branch*', 'parent record*', 'parent table*', 'parent row*', 'parent key*', 'parent entit*', 'parent object*', 'parent pom', 'parent epic*', 'parent page*',
  'psychological safety', 'psychologische sicherheit', 'blind spot*', 'double blind', 'blind review*', 'single point*', 'single source*', 'single sign*', 'single page*', 'single thread*', 'single responsibilit*', 'single tenant*', 'single node*', 'single region*', 'single instance*', 'single server*', 'single file*', 'single table*', 'single team*', 'single service*', 'single or multi*', 'single or double', 'strike a balance', 'strikes a balance', 'strike the right balance', 'lucky strike', 'grow up to', 'easter egg*',
];

/**
 * Cyrillic and Greek letters that look like Latin ones ("mаrried" with a Cyrillic а): read as the
 * Latin letter, so a look-alike does not hide a term. No supported language writes them.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ɡ: 'g',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * Format characters removed (a soft hyphen or zero-width space inside a word does not split it),
 * look-alike letters read as Latin, NFKC, lower case, no combining marks (ä → a, é → e), ß → ss,
 * and one space between words.
 */
export function foldForMatching(text: string): string {
  return text
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES[c]!)
    .replaceAll('ß', 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A term as words on folded text (words of letters and digits, one space between them): each word
 * of the term is a whole word of the text, in a row; `*` at the end allows a longer last word, and
 * `?` stands for one letter (British and American spellings). Terms are written folded already
 * (the tests hold every list to that).
 */
interface TermWord {
  text: string;
  /** The last word of a term ending in `*`: the text's word starts with it. */
  prefix: boolean;
  /** Holds a `?`: compared letter by letter. */
  wild: boolean;
}

function termWords(term: string): TermWord[] {
  const prefix = term.endsWith('*');
  const words = (prefix ? term.slice(0, -1) : term).split(' ');
  return words.map((text, i) => ({ text, prefix: prefix && i === words.length - 1, wild: text.includes('?') }));
}

const LETTER = /^\p{L}$/u;

function wordMatches(pattern: TermWord, word: string): boolean {
  if (!pattern.wild) return pattern.prefix ? word.startsWith(pattern.text) : word === pattern.text;
  const letters = [...word];
  const wanted = [...pattern.text];
  if (pattern.prefix ? letters.length < wanted.length : letters.length !== wanted.length) return false;
  return wanted.every((c, i) => (c === '?' ? LETTER.test(letters[i]!) : c === letters[i]));
}

/**
 * Terms found by the words of a text. Each text word looks up the terms whose first word starts
 * with one of its beginnings (up to a `?` or `*`, or the whole word): a few map lookups per word,
 * where one pattern of every term ran the regular-expression interpreter across the text (up to
 * 35 ms for a German follow-up, docs/benchmarks.md).
 */
class TermIndex<T> {
  private readonly byHead = new Map<string, { words: TermWord[]; value: T; order: number }[]>();
  private readonly headLengths: number[];

  constructor(terms: readonly { term: string; value: T }[]) {
    const lengths = new Set<number>();
    terms.forEach(({ term, value }, order) => {
      const words = termWords(term);
      const head = words[0]!.text.split('?')[0]!;
      lengths.add(head.length);
      const list = this.byHead.get(head) ?? [];
      list.push({ words, value, order });
      this.byHead.set(head, list);
    });
    this.headLengths = [...lengths].sort((a, b) => a - b);
  }

  /** Every match in the text's words (`''` is a gap no term spans): where it starts and ends, and the term's value and list position. */
  *matches(words: readonly string[]): Generator<{ start: number; end: number; value: T; order: number }> {
    for (let start = 0; start < words.length; start++) {
      const word = words[start]!;
      for (const length of this.headLengths) {
        if (length > word.length) break;
        for (const candidate of this.byHead.get(word.slice(0, length)) ?? []) {
          const { words: pattern } = candidate;
          if (start + pattern.length > words.length) continue;
          if (pattern.every((p, i) => wordMatches(p, words[start + i]!))) yield { start, end: start + pattern.length, value: candidate.value, order: candidate.order };
        }
      }
    }
  }
}

interface ListedTerm {
  topic: ProtectedTopic;
  language: 'en' | 'de';
  term: string;
  /** An everyday word of another supported language (FALSE_FRIENDS). */
  falseFriend: boolean;
}

/** Every listed term, in list order (English first): a follow-up that touches several reports the first. */
const LISTED: readonly ListedTerm[] = (Object.entries(FORBIDDEN_TERMS) as ['en' | 'de', TermLists][]).flatMap(([language, lists]) =>
  Object.entries(lists).flatMap(([topic, terms]) => terms.map((term) => ({ topic: topic as ProtectedTopic, language, term, falseFriend: FALSE_FRIENDS[language].includes(term) }))),
);
const TERM_INDEX = new TermIndex(LISTED.map((t) => ({ term: t.term, value: t })));
const MARKER_SETS = Object.fromEntries(Object.entries(MARKERS).map(([language, words]) => [language, new Set(words)])) as Record<'en' | 'de', Set<string>>;

/** Whether folded words read as `language`: two different function words of it. */
function readsAs(words: readonly string[], language: 'en' | 'de'): boolean {
  const markers = MARKER_SETS[language];
  const seen = new Set<string>();
  for (const word of words) if (markers.has(word) && seen.add(word).size >= 2) return true;
  return false;
}
const WORK_PHRASE_INDEX = new TermIndex(WORK_PHRASES.map((term) => ({ term, value: term })));

export interface ForbiddenTopicMatch {
  topic: ProtectedTopic;
  /** The listed term that matched, as written in the list (never the follow-up's text). */
  term: string;
  language: 'en' | 'de';
}

export type InterviewerLanguage = keyof typeof FORBIDDEN_TERMS;


/**
 * Takes the work phrases out of a text's words, as a replace with one pattern of them all would:
 * from the left, at each place the first phrase in list order, and on after its end.
 */
function blankWorkPhrases(words: string[]): void {
  const found = [...WORK_PHRASE_INDEX.matches(words)];
  let resumeAt = 0;
  for (let i = 0; i < found.length; ) {
    let pick = found[i]!;
    let j = i;
    for (; j < found.length && found[j]!.start === pick.start; j++) if (found[j]!.order < pick.order) pick = found[j]!;
    if (pick.start >= resumeAt) {
      words.fill('', pick.start, pick.end);
      resumeAt = pick.end;
    }
    i = j;
  }
}

/**
 * The first protected topic a follow-up touches, in any supported language (a false friend only
 * in its own: see the top of this file), or null when it touches none. Work phrases are taken out
 * first, and no term spans the gap they leave.
 */
export function findForbiddenTopic(text: string, language: InterviewerLanguage): ForbiddenTopicMatch | null {
  const words = foldForMatching(text).split(' ');
  blankWorkPhrases(words);
  const reads = new Map<'en' | 'de', boolean>();
  const counts = (t: ListedTerm) => {
    if (!t.falseFriend || t.language === language) return true;
    if (!reads.has(t.language)) reads.set(t.language, readsAs(words, t.language));
    return reads.get(t.language)!;
  };
  let first: ListedTerm | null = null;
  let firstOrder = Infinity;
  for (const { value, order } of TERM_INDEX.matches(words)) {
    if (order < firstOrder && counts(value)) [first, firstOrder] = [value, order];
  }
  return first && { topic: first.topic, term: first.term, language: first.language };
}
