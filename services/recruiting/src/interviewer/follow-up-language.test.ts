import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readsAsLanguage } from './follow-up-language.js';

describe('a follow-up in its interview\'s language', () => {
  it('ordinary follow-ups read as their language, the offline writer\'s too', () => {
    const english = [
      'Could you give a concrete example: what was the situation, what did you do yourself, and what was the result?',
      'How did you know that it worked: what did you measure or observe?',
      'What was the root cause, and how did you find it?',
      'Which of those steps did you take yourself?',
      'Can you give a concrete example?',
      'Tell me more?',
    ];
    const german = [
      'Können Sie ein konkretes Beispiel nennen: Wie war die Situation, was haben Sie selbst getan, und was war das Ergebnis?',
      'Woran haben Sie gemerkt, dass es funktioniert hat: Was haben Sie gemessen oder beobachtet?',
      'Welche Rolle hatten Sie dabei?',
      'Was genau haben Sie gemacht?',
    ];
    for (const text of english) assert.equal(readsAsLanguage(text, 'en'), true, text);
    for (const text of german) assert.equal(readsAsLanguage(text, 'de'), true, text);
  });

  it('a follow-up in another language is not read as either: the topic lists never saw it', () => {
    const others = ['¿Cuántos años tiene usted?', 'Quanti anni hai?', 'Wat is uw geloof?', 'Jesteś żonaty?', 'Сколько вам лет?', '你多大了？', 'Êtes-vous marié?'];
    for (const text of others) {
      assert.equal(readsAsLanguage(text, 'en'), false, text);
      assert.equal(readsAsLanguage(text, 'de'), false, text);
    }
  });

  it('short questions that start with a question word, and follow-ups with a tech token or an English term, are their language', () => {
    const english = ['Which metrics improved?', 'What happened next?', 'What went wrong?', 'Anything else?', 'Why Kubernetes?', 'Who decided?', 'How many users?', 'Can you comment on the rollout?', 'How did the LA office react?', 'How did you set up DI in that service?', 'Did you mitigate the DoS attack yourself?', 'Which OS did you target?'];
    const german = ['Und dann?', 'Wie lange hat das gedauert?', 'Wer war beteiligt?', 'Was ging schief?', 'Welche Tools?', 'Wie oft?', 'Gab es Widerstände?', 'Wie bist du vorgegangen?', 'Was hast du gelernt?', 'Wie haben Sie den Single Point of Failure beseitigt?', 'Haben Sie an der TU München geforscht?'];
    for (const text of english) assert.equal(readsAsLanguage(text, 'en'), true, text);
    for (const text of german) assert.equal(readsAsLanguage(text, 'de'), true, text);
  });

  it('a clause in another language, or a German question in an English interview, is not the language', () => {
    const mixedEnglish = ['Can you tell me, ¿cuántos años tiene usted?', 'What was your role, y está usted casado?', 'What was your role in the project, e quantos anos você tem?', 'On a des enfants à la maison?', 'È sposato, a casa ha figli in famiglia?', 'Ile masz lat, a to jest ważne?', 'Was war Ihre Rolle in dem Team?', 'Was haben Sie in der Zeit so gemacht?'];
    const mixedGerman = ['Tu es marié, et tu as des enfants?', 'Wie alt sind Sie, o cuántos años tiene?', 'Wie was uw manager?', 'Wie was de eigenaar van uw huis?'];
    for (const text of mixedEnglish) assert.equal(readsAsLanguage(text, 'en'), false, text);
    for (const text of mixedGerman) assert.equal(readsAsLanguage(text, 'de'), false, text);
  });

  it('English in a German interview, and German in an English one, are not their language', () => {
    assert.equal(readsAsLanguage('What exactly did you do in that project?', 'de'), false);
    assert.equal(readsAsLanguage('Was genau haben Sie gemacht?', 'en'), false);
    assert.equal(readsAsLanguage('Why?', 'en'), false, 'one word tells no language');
  });
});
