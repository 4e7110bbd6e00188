import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FALSE_FRIENDS, FORBIDDEN_TERMS, findForbiddenTopic, foldForMatching, MARKERS, WORK_PHRASES, type ProtectedTopic } from './forbidden-topics.js';

const TOPICS: ProtectedTopic[] = [
  'age', 'family', 'pregnancy_children', 'marital_status', 'health_disability', 'religion', 'origin', 'citizenship',
  'sexual_orientation', 'gender_identity', 'union_membership', 'political_opinion', 'criminal_record',
];

describe('forbidden topics: the lists', () => {
  it('every supported language lists every protected topic of PRODUCT.md §12', () => {
    for (const [language, lists] of Object.entries(FORBIDDEN_TERMS)) {
      for (const topic of TOPICS) assert.ok((lists[topic] ?? []).length > 0, `${language} has no terms for ${topic}`);
    }
  });

  it('every term, written into a sentence, is caught in its own language', () => {
    for (const [language, lists] of Object.entries(FORBIDDEN_TERMS) as [keyof typeof FORBIDDEN_TERMS, Record<ProtectedTopic, readonly string[]>][]) {
      for (const [topic, terms] of Object.entries(lists)) {
        for (const term of terms) {
          const written = term.replace(/\*$/, 'en').replaceAll('?', 's');
          const match = findForbiddenTopic(`Tell me about ${written} please`, language);
          assert.ok(match, `"${written}" (${language}, ${topic}) was not caught`);
        }
      }
    }
  });

  it('every term is written folded, so it can match folded text', () => {
    for (const lists of Object.values(FORBIDDEN_TERMS)) {
      for (const term of Object.values(lists).flat()) {
        const bare = term.replace(/\*$/, '').replaceAll('?', 'z');
        assert.equal(foldForMatching(bare), bare, `"${term}" is not folded`);
      }
    }
  });
});

describe('forbidden topics: follow-ups that are dropped', () => {
  const english: [string, ProtectedTopic][] = [
    ['How old were you when you started programming?', 'age'],
    ['What is your date of birth?', 'age'],
    ['When do you plan to retire?', 'age'],
    ['Do you have children, and who looks after them?', 'pregnancy_children'],
    ['Are you pregnant or planning a family?', 'family'],
    ['Is your husband also moving to Berlin?', 'marital_status'],
    ['Are you married?', 'marital_status'],
    ['Do you have any disabilities we should know about?', 'health_disability'],
    ['How is your mental health these days?', 'health_disability'],
    ['Which church do you attend on Sundays?', 'religion'],
    ['Would you need time off for Ramadan?', 'religion'],
    ['Where are you from originally?', 'origin'],
    ['Is English your native language?', 'origin'],
    ['Are you a US citizen?', 'citizenship'],
    ['Are you authorised to work in the UK?', 'citizenship'],
    ['Are you authorized to work here?', 'citizenship'],
    ['Do you need visa sponsorship?', 'citizenship'],
    ['Is your partner a man or a woman?', 'family'],
    ['What is your sexual orientation?', 'sexual_orientation'],
    ['Which pronouns do you use?', 'gender_identity'],
    ['Have you ever been a member of a trade union?', 'union_membership'],
    ['Would you unionize your team?', 'union_membership'],
    ['Who did you vote for in the last election?', 'political_opinion'],
    ['Have you ever been arrested?', 'criminal_record'],
    ['Do you have a criminal record?', 'criminal_record'],
    ['When will you retire?', 'age'],
    ['Are you planning a wedding this year?', 'marital_status'],
    ['Have you ever been treated for depression?', 'health_disability'],
    ['Did you come here as a refugee?', 'origin'],
    ['Which caste do you belong to?', 'origin'],
  ];
  for (const [question, topic] of english) {
    it(`"${question}" touches ${topic}`, () => {
      const found = findForbiddenTopic(question, 'en');
      assert.ok(found, `not caught: ${question}`);
      assert.equal(found.topic, topic);
    });
  }

  const german: [string, ProtectedTopic][] = [
    ['Wie alt sind Sie?', 'age'],
    ['Wann sind Sie geboren?', 'age'],
    ['Haben Sie Kinder?', 'pregnancy_children'],
    ['Planen Sie eine Schwangerschaft?', 'pregnancy_children'],
    ['Sind Sie verheiratet?', 'marital_status'],
    ['Haben Sie eine Schwerbehinderung?', 'health_disability'],
    ['Wie oft waren Sie im letzten Jahr krank?', 'health_disability'],
    ['Welcher Konfession gehören Sie an?', 'religion'],
    ['Was ist Ihre Muttersprache?', 'origin'],
    ['Welche Staatsangehörigkeit haben Sie?', 'origin'],
    ['Brauchen Sie eine Arbeitserlaubnis?', 'citizenship'],
    ['Sind Sie homosexuell?', 'sexual_orientation'],
    ['Welches Geschlecht haben Sie?', 'gender_identity'],
    ['Sind Sie Mitglied einer Gewerkschaft?', 'union_membership'],
    ['Welche Partei unterstützen Sie?', 'political_opinion'],
    ['Haben Sie Vorstrafen?', 'criminal_record'],
    ['Können Sie ein Führungszeugnis vorlegen?', 'criminal_record'],
    ['Sind Sie als Flüchtling nach Deutschland gekommen?', 'origin'],
    ['Sind Sie gerade in den Wechseljahren?', 'health_disability'],
    ['Wohin fahren Sie in die Flitterwochen?', 'marital_status'],
  ];
  for (const [question, topic] of german) {
    it(`"${question}" touches ${topic}`, () => {
      const found = findForbiddenTopic(question, 'de');
      assert.ok(found, `not caught: ${question}`);
      assert.equal(found.topic, topic);
    });
  }

  it('case, width, diacritics and punctuation do not hide a term', () => {
    for (const text of ['ARE YOU MARRIED?', 'Are you ｍａｒｒｉｅｄ?', 'Are you married...', 'Are\u00a0you\nmarried']) {
      assert.equal(findForbiddenTopic(text, 'en')?.topic, 'marital_status', text);
    }
    assert.equal(findForbiddenTopic('Welche STAATSANGEHORIGKEIT haben Sie?', 'de')?.topic, 'origin');
    assert.equal(findForbiddenTopic('Welche Religiösität?', 'de')?.topic, 'religion');
  });

  it('a German interview is also checked against English, the language a model strays into', () => {
    assert.equal(findForbiddenTopic('Are you married?', 'de')?.topic, 'marital_status');
  });

  it('an English interview is also checked against German: a model may stray either way', () => {
    for (const [question, topic] of [['Wie alt sind Sie?', 'age'], ['Haben Sie Kinder?', 'pregnancy_children'], ['Sind Sie verheiratet?', 'marital_status']] as const) {
      assert.equal(findForbiddenTopic(question, 'en')?.topic, topic, question);
    }
    // A false friend counts where the text reads as its language.
    assert.equal(findForbiddenTopic('Haben Sie ein Kind?', 'en')?.topic, 'pregnancy_children');
    assert.equal(findForbiddenTopic('Do you take time off for Eid?', 'de')?.topic, 'religion');
    assert.equal(findForbiddenTopic('Hat der Zeuge einen Eid geleistet?', 'de'), null);
  });

  // Found by a black-box run (2026-11-29): each reached the page.
  const strays: [string, 'en' | 'de', ProtectedTopic][] = [
    ['Where are you originally from?', 'en', 'origin'],
    ["What's your home country?", 'en', 'origin'],
    ['Are you over 40?', 'en', 'age'],
    ['Are you too old for a startup?', 'en', 'age'],
    ['Are you single?', 'en', 'marital_status'],
    ['Are you in a relationship?', 'en', 'marital_status'],
    ['Are you a mother?', 'en', 'family'],
    ['Is there anyone at home who depends on you?', 'en', 'family'],
    ['Are you Catholic?', 'en', 'religion'],
    ['Which holidays do you celebrate?', 'en', 'religion'],
    ['Are you HIV positive?', 'en', 'health_disability'],
    ['Have you had any surgeries?', 'en', 'health_disability'],
    ['Are you Black?', 'en', 'origin'],
    ['Are you Hispanic?', 'en', 'origin'],
    ['Did you join the strike?', 'en', 'union_membership'],
    ['Sind Sie katholisch?', 'de', 'religion'],
    ['Sind Sie evangelisch?', 'de', 'religion'],
    ['Haben Sie einen Partner?', 'de', 'family'],
    ['Leben Sie in einer Beziehung?', 'de', 'marital_status'],
    ['Sind Sie zu alt für ein Startup?', 'de', 'age'],
    ['Sind Sie in psychotherapeutischer Behandlung?', 'de', 'health_disability'],
    // Found by a second black-box run (2026-11-30): proxies of age, and a partner.
    ['When did you graduate from high school?', 'en', 'age'],
    ['When did you finish high school?', 'en', 'age'],
    ['In what year did you finish university?', 'en', 'age'],
    ['How many years of experience do you have since your graduation in the 1980s?', 'en', 'age'],
    ['Do you have a partner?', 'en', 'family'],
    ['Wann haben Sie Ihr Abitur gemacht?', 'de', 'age'],
    ['In welchem Jahr haben Sie die Schule beendet?', 'de', 'age'],
    // Found by a third black-box run (2026-11-30): plain questions about several characteristics.
    ['Are you a believer?', 'en', 'religion'],
    ['Sind Sie gläubig?', 'de', 'religion'],
    ['Are you straight?', 'en', 'sexual_orientation'],
    ['Do you identify as a woman?', 'en', 'gender_identity'],
    ['What do you think of the current government?', 'en', 'political_opinion'],
    ['Would you describe yourself as conservative or liberal?', 'en', 'political_opinion'],
    ['Have you ever been in trouble with the police?', 'en', 'criminal_record'],
    ['Do you have any long-term conditions?', 'en', 'health_disability'],
    ['How many days were you off work last year?', 'en', 'health_disability'],
    ['Are you young enough to keep up with our team?', 'en', 'age'],
    ['Are you a digital native?', 'en', 'age'],
    ['What generation are you?', 'en', 'age'],
    ['Are you a boomer?', 'en', 'age'],
    ['Who is looking after your little ones while you work?', 'en', 'pregnancy_children'],
    ['Wer betreut Ihre Kleinen, während Sie arbeiten?', 'de', 'pregnancy_children'],
  ];
  for (const [question, language, topic] of strays) {
    it(`"${question}" (${language}) touches ${topic}`, () => assert.equal(findForbiddenTopic(question, language)?.topic, topic));
  }

  it('a soft hyphen, a zero-width space or a look-alike letter of another script does not hide a term', () => {
    for (const text of ['Do you have chil\u00ADdren?', 'Do you have chil\u200Bdren?', 'Are you m\u0430rried?', 'ARE YOU M\u0410RRIED?', 'Are you m\u03b1rried?']) {
      assert.ok(findForbiddenTopic(text, 'en'), JSON.stringify(text));
    }
  });

  it('says which listed term matched, never the text itself', () => {
    const found = findForbiddenTopic('Tell me about your wife, Anna.', 'en');
    assert.deepEqual(found, { topic: 'marital_status', term: 'wife', language: 'en' });
  });
});

describe('forbidden topics: follow-ups that pass', () => {
  const ordinary: [string, 'en' | 'de'][] = [
    ['Can you give a concrete example of a time you resolved a conflict in your team?', 'en'],
    ['What kind of tests did you write, and why those?', 'en'],
    ['How did you find the race condition, and how did you fix it?', 'en'],
    ['What did the health check of the service verify?', 'en'],
    ['Which metric told you the migration worked?', 'en'],
    ['How did you alter the schema without downtime?', 'en'],
    ['What was your role in the project, and what would you do differently?', 'en'],
    ['How did the leader election behave during the partition?', 'en'],
    ['Was there a single owner for the service, or a single point of failure?', 'en'],
    ['What was the parent process doing when the child process hung?', 'en'],
    ['How did you build psychological safety in the team?', 'en'],
    ['How did you strike a balance between speed and quality?', 'en'],
    ['What did the black box tests miss?', 'en'],
    ['Which parent component owned the state?', 'en'],
    ['When did you finish the migration, and what was left?', 'en'],
    ['How did you partner with the sales team on the launch?', 'en'],
    ['What did the new graduates on your team need from you?', 'en'],
    ['How did you work with the government agency on the rollout?', 'en'],
    ['Was your first figure a conservative estimate, and how far off was it?', 'en'],
    ['What did you identify as the main risk?', 'en'],
    ['Which generation of the API did you build, and what did you change?', 'en'],
    ['How did you keep the deploys straightforward?', 'en'],
    ['Wie haben Sie mit der Tochtergesellschaft zusammengearbeitet?', 'de'],
    ['Wer betreut das System nach dem Go-live?', 'de'],
    // Work talk a review found dropped by the 2026-11-30 additions before they were narrowed.
    ['How did you keep the architecture cloud-agnostic?', 'en'],
    ['Are you a big believer in test-driven development?', 'en'],
    ['Would you use a left or right join for that report?', 'en'],
    ['Are you conservative when you estimate effort?', 'en'],
    ['What was the underlying condition that caused the outage?', 'en'],
    ['When did you kick off work on the migration?', 'en'],
    ['Did you write a little one-off script for it?', 'en'],
    ['How would you find the orphaned son processes?', 'en'],
    ['How did you deploy to the government cloud regions?', 'en'],
    ['Who would police the coding standards?', 'en'],
    ['Which generation are you targeting, the old API or the new one?', 'en'],
    ['Is the data old enough to move to cold storage?', 'en'],
    ['Which part of the stack are you most attracted to?', 'en'],
    ['Did you go straight or take a detour via a prototype?', 'en'],
    ['How did you support the women in your team as a lead?', 'en'],
    ['Wie haben Sie die kleinen Services geschnitten?', 'de'],
    ['Würden Sie eher konservativ oder optimistisch schätzen?', 'de'],
    ['Richten Sie das Label links oder rechts aus?', 'de'],
    ['Wie war die Arbeit bei einer Tochter der Telekom?', 'de'],
    ['Haben Sie Software für die Regierung gebaut?', 'de'],
    ['Wie haben Sie die Police-Verwaltung umgesetzt?', 'de'],
    ['Wie sind Sie mit den Fehlzeiten des Build-Servers umgegangen?', 'de'],
    ['Können Sie ein konkretes Beispiel nennen, wie Sie den Konflikt gelöst haben?', 'de'],
    ['Welche Art von Tests haben Sie geschrieben?', 'de'],
    ['Glauben Sie, dass die Lösung skaliert hätte?', 'de'],
    ['Wie haben Sie sich mit dem Team abgestimmt?', 'de'],
    ['Was war Ihre Rolle in der Produktfamilie?', 'de'],
  ];
  for (const [question, language] of ordinary) {
    it(`"${question}" (${language}) passes`, () => assert.equal(findForbiddenTopic(question, language), null));
  }

  it('a German word is not read into an English follow-up ("kind" is not "Kind")', () => {
    assert.equal(findForbiddenTopic('What kind of project was it?', 'en'), null);
    assert.equal(findForbiddenTopic('Was für ein Kind?', 'de')?.topic, 'pregnancy_children');
  });

  it('a listed word inside a longer word is not a match without a trailing *', () => {
    assert.equal(findForbiddenTopic('How did you manage the stage gates?', 'en'), null); // "age"
    assert.equal(findForbiddenTopic('What was your strategy?', 'en'), null); // "ill"? no
    assert.equal(findForbiddenTopic('Which vendor did you pick?', 'en'), null);
  });
});

/**
 * The check as it was first written, one regular expression per term on the folded text (the
 * meaning the word index must keep): whole words at word starts, `*` a longer last word, `?` one
 * letter; the work phrases replaced by a space first.
 */
function referenceFind(text: string, language: 'en' | 'de') {
  const pattern = (term: string) => {
    const prefix = term.endsWith('*');
    const body = (prefix ? term.slice(0, -1) : term).replaceAll('?', '\\p{L}');
    return `(?<![\\p{L}\\p{N}])${body}${prefix ? '[\\p{L}\\p{N}]*' : ''}(?![\\p{L}\\p{N}])`;
  };
  const work = new RegExp(WORK_PHRASES.map(pattern).join('|'), 'gu');
  const folded = foldForMatching(text).replace(work, ' ');
  const readsAs = (lang: 'en' | 'de') => new Set(folded.split(' ').filter((w) => MARKERS[lang].includes(w))).size >= 2;
  for (const [lang, lists] of Object.entries(FORBIDDEN_TERMS) as ['en' | 'de', Record<ProtectedTopic, readonly string[]>][]) {
    for (const [topic, terms] of Object.entries(lists) as [ProtectedTopic, readonly string[]][]) {
      for (const term of terms) {
        if (FALSE_FRIENDS[lang].includes(term) && lang !== language && !readsAs(lang)) continue;
        if (new RegExp(pattern(term), 'u').test(folded)) return { topic, term, language: lang };
      }
    }
  }
  return null;
}


describe('forbidden topics: the word index means what one pattern per term meant', () => {
  const listedWords = [...new Set([...Object.values(FORBIDDEN_TERMS).flatMap((lists) => Object.values(lists).flat()), ...WORK_PHRASES].flatMap((t) => t.split(' ')))];
  const word = fc.oneof(
    fc.constantFrom(...listedWords).chain((w) => fc.tuple(fc.constantFrom('', 'en', 's', 'ung', '2'), fc.constantFrom('s', 'z', 'ä', 'x')).map(([tail, letter]) => w.replace(/\*$/, tail).replaceAll('?', letter))),
    fc.constantFrom('the', 'you', 'your', 'how', 'stage', 'kind', 'Kind', 'Ihre', 'what', 'team', 'a', 'or', 'ALTER', 'Mütter', 'Ehe', 'ﬁance', 'Eid', 'single', 'haben', 'sind'),
    fc.string({ unit: fc.constantFrom('a', 'e', 'n', 's', 'ä', 'ß', '1'), minLength: 1, maxLength: 6 }),
  );
  const separator = fc.constantFrom(' ', ' ', ' ', ', ', '-', '\n', '... ', '\u00a0', "'", ' Sie ', ' und ', ' the ', ' you ');
  const text = fc.array(fc.tuple(word, separator), { maxLength: 12 }).map((parts) => parts.map(([w, s]) => w + s).join(''));

  it('the same first term, or none, for any text in either language', () => {
    fc.assert(
      fc.property(text, fc.constantFrom<'en' | 'de'>('en', 'de'), (t, language) => {
        assert.deepEqual(findForbiddenTopic(t, language), referenceFind(t, language));
      }),
      { numRuns: 3000 },
    );
  });
});
