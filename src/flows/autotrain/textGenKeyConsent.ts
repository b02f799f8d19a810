import { isLoopback } from '../../client/proxy';
import { l10n } from '../../l10n/l10n';
import type { TextGenConfig } from '../../contract/autotrain';
import { answered, type Prompter } from '../../prompts/prompter';

/** Where the extension is connected: its local service, or a hosted one at `url`. */
export type ServiceTarget = { readonly hosted: false } | { readonly hosted: true; readonly url: string };

/** The user's answer for one hosted service. */
export type KeyChoice = 'send' | 'withhold';

/** Where the answers are remembered: the extension's global state (structurally a `vscode.Memento`). */
export interface ChoiceMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

const MEMORY_KEY = 'xmodels.textgen.keyChoices';

/** A hosted service may receive a secret over HTTPS, or over plain HTTP on this machine only. */
export function carriesSecretsSafely(serviceUrl: string): boolean {
  if (!URL.canParse(serviceUrl)) return false;
  const url = new URL(serviceUrl);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

/** The name a choice is remembered under: the service's scheme, host, port and path. */
function serviceKey(serviceUrl: string): string {
  const url = new URL(serviceUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function withoutKey(config: TextGenConfig): TextGenConfig {
  const { api_key: _withheld, ...rest } = config;
  return rest;
}

/**
 * Whether the user's text-generation key goes with autotrain calls. The local service always gets it (it stays on
 * this machine). A hosted service gets it only over HTTPS (or on this machine) and only after the user said so: the
 * question is asked once per service URL and the answer is remembered; until then, and after a no, no key is sent and
 * the service answers from its own endpoint or its rules.
 */
export class TextGenKeyConsent {
  constructor(private readonly memory: ChoiceMemory) {}

  /** `config` as it may be sent to `target`: without its `api_key` unless the rules above let the key go. */
  configFor(config: TextGenConfig, target: ServiceTarget): TextGenConfig {
    if (!config.api_key || !target.hosted) return config;
    return carriesSecretsSafely(target.url) && this.choiceFor(target.url) === 'send' ? config : withoutKey(config);
  }

  /**
   * The consent step of the autotrain flow: asks whether the key may go to `target` when it could and no answer is
   * remembered for it. Resolves false when the user dismissed the question (which ends the flow).
   */
  async askIfUndecided(config: TextGenConfig, target: ServiceTarget, prompter: Prompter): Promise<boolean> {
    if (!config.api_key || !target.hosted || !carriesSecretsSafely(target.url) || this.choiceFor(target.url)) return true;
    const host = new URL(target.url).host;
    const answer = await prompter.pickOne<KeyChoice>({
      id: 'textgenKey',
      position: { title: l10n.t('Text-generation API key'), canGoBack: false },
      placeholder: l10n.t('Send your text-generation API key to the hosted service at {0}? Asked once for this service.', host),
      items: [
        {
          label: l10n.t('Do not send my key'),
          detail: l10n.t('Autotrain answers from the service\'s own text-generation endpoint, or from its rules.'),
          value: 'withhold',
        },
        {
          label: l10n.t('Send my key to {0}', host),
          detail: l10n.t('The service calls your provider with it; it keeps the key in memory for a running job only and never stores it.'),
          value: 'send',
        },
      ],
    });
    if (!answered(answer)) return false;
    await this.memory.update(MEMORY_KEY, { ...this.choices(), [serviceKey(target.url)]: answer });
    return true;
  }

  /** Forgets every answer (a new key is asked about again). */
  async forget(): Promise<void> {
    await this.memory.update(MEMORY_KEY, undefined);
  }

  private choices(): Record<string, KeyChoice> {
    return this.memory.get<Record<string, KeyChoice>>(MEMORY_KEY) ?? {};
  }

  private choiceFor(serviceUrl: string): KeyChoice | undefined {
    return this.choices()[serviceKey(serviceUrl)];
  }
}
