import assert from 'node:assert/strict';
import type { TextGenConfig } from '../../../../src/contract/autotrain';
import { carriesSecretsSafely, TextGenKeyConsent, type ChoiceMemory, type ServiceTarget } from '../../../../src/flows/autotrain/textGenKeyConsent';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

/** The extension's global state, in memory. */
class Memory implements ChoiceMemory {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

const KEYED: TextGenConfig = { provider: 'openai', temperature: 0.2, n: 1, model: 'gpt-4o-mini', api_key: 'sk-user-secret' };
const TEAM: ServiceTarget = { hosted: true, url: 'https://xmodels.team.example/' };
const LOCAL: ServiceTarget = { hosted: false };

/** Asks as the autotrain command does, then returns what its calls would send. */
async function autotrainSends(consent: TextGenKeyConsent, target: ServiceTarget, answers: ScriptedAnswer[], config = KEYED) {
  const prompter = new ScriptedPrompter(answers);
  const goOn = await consent.askIfUndecided(config, target, prompter);
  assert.equal(prompter.remaining, 0, 'every scripted answer was asked for');
  return { goOn, sent: goOn ? consent.configFor(config, target) : undefined, prompts: prompter.prompts };
}

describe('autotrain flow: consent to send the text-generation key to a hosted service', () => {
  it('asks once, remembers the answer for that service, and sends the key from then on', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    assert.equal(consent.configFor(KEYED, TEAM).api_key, undefined, 'nothing is sent before the user said so');
    const first = await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: { pick: 'Send my key to xmodels.team.example' } }]);
    assert.deepEqual(first.prompts.map((p) => p.labels), [['Do not send my key', 'Send my key to xmodels.team.example']]);
    assert.equal(first.prompts[0].position.title, 'Text-generation API key');
    assert.equal(first.sent?.api_key, 'sk-user-secret');
    const again = await autotrainSends(consent, { hosted: true, url: 'https://xmodels.team.example' }, []);
    assert.equal(again.sent?.api_key, 'sk-user-secret', 'the same service (trailing slash aside) is not asked again');
  });

  it('remembers a no: the key is withheld and the rest of the configuration still sent', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    const first = await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: 'accept' }]);
    assert.equal(first.goOn, true);
    const { api_key, ...rest } = KEYED;
    assert.ok(api_key);
    assert.deepEqual(first.sent, rest, 'the safe first row, Do not send, is the default');
    assert.deepEqual((await autotrainSends(consent, TEAM, [])).sent, rest);
  });

  it('asks each hosted service on its own, and forgets every answer when the key changes', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: { pick: 'Send my key to xmodels.team.example' } }]);
    const other: ServiceTarget = { hosted: true, url: 'https://other.example:8443/xmodels' };
    assert.equal(consent.configFor(KEYED, other).api_key, undefined);
    const asked = await autotrainSends(consent, other, [{ id: 'textgenKey', reply: { pick: 'Do not send my key' } }]);
    assert.match(asked.prompts[0].labels[1], /other\.example:8443/);
    await consent.forget();
    assert.equal(consent.configFor(KEYED, TEAM).api_key, undefined);
    await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: 'accept' }]);
  });

  it('ends the flow when the question is dismissed, remembering nothing', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    const dismissed = await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: 'cancel' }]);
    assert.equal(dismissed.goOn, false);
    await autotrainSends(consent, TEAM, [{ id: 'textgenKey', reply: 'accept' }]);
  });

  it('never sends the key over plain http to another machine, and does not ask', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    const plain: ServiceTarget = { hosted: true, url: 'http://xmodels.team.example:8765' };
    const result = await autotrainSends(consent, plain, []);
    assert.equal(result.goOn, true);
    assert.equal(result.sent?.api_key, undefined);
    assert.equal(result.sent?.model, 'gpt-4o-mini');
  });

  it('sends it to the local service without asking, and asks for a hosted service on this machine even over http', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    assert.equal((await autotrainSends(consent, LOCAL, [])).sent?.api_key, 'sk-user-secret');
    const onThisMachine: ServiceTarget = { hosted: true, url: 'http://127.0.0.1:8765' };
    const result = await autotrainSends(consent, onThisMachine, [{ id: 'textgenKey', reply: { pick: 'Send my key to 127.0.0.1:8765' } }]);
    assert.equal(result.sent?.api_key, 'sk-user-secret');
  });

  it('asks nothing when there is no key to send', async () => {
    const consent = new TextGenKeyConsent(new Memory());
    const { api_key: _key, ...keyless } = KEYED;
    assert.deepEqual((await autotrainSends(consent, TEAM, [], keyless)).sent, keyless);
  });

  it('reads which service URLs may carry a secret', () => {
    assert.ok(carriesSecretsSafely('https://team.example'));
    assert.ok(carriesSecretsSafely('http://localhost:8765'));
    assert.ok(carriesSecretsSafely('http://[::1]:8765'));
    assert.ok(!carriesSecretsSafely('http://10.0.0.5:8765'));
    assert.ok(!carriesSecretsSafely('http://127.0.0.1.nip.io:8765'));
    assert.ok(!carriesSecretsSafely(''));
  });
});
