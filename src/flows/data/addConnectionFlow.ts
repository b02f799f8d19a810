import { ConnectionNameSchema } from '../../contract/connections';
import { dataConnectionUrlProblem } from '../../common/dataConnectionUrl';
import { l10n } from '../../l10n/l10n';
import { answered, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';

export interface NewDataConnection {
  name: string;
  url: string;
}

/** The message under the name box, or undefined when the name can be used. */
export function connectionNameProblem(value: string, taken: readonly string[]): string | undefined {
  const name = value.trim();
  if (!name) return l10n.t('Enter a name for the connection, e.g. warehouse.');
  if (!ConnectionNameSchema.safeParse(name).success) return l10n.t('Start with a letter, then use up to 62 letters, digits, _ or - (no spaces).');
  if (taken.includes(name)) return l10n.t('There is already a connection named {0}: choose another name, or remove that one first.', name);
  return undefined;
}

/**
 * Name → URL, with Back; both checked as they are typed, so what reaches the service has the right shape. The URL
 * box hides what is typed (it may hold a password). Resolves undefined when the user dismissed a prompt.
 */
export async function askDataConnection(prompter: Prompter, taken: readonly string[]): Promise<NewDataConnection | undefined> {
  const title = l10n.t('Add Data Connection');
  const answer: NewDataConnection = { name: '', url: '' };
  const urlStep: Step = async () => {
    const url = await prompter.input({
      id: 'url',
      position: stepPosition(title, 2, 2),
      prompt: l10n.t('URL of {0}: postgres://user:password@host:5432/database, duckdb:///absolute/path.db or duckdb::memory:', answer.name),
      value: answer.url,
      password: true,
      validate: dataConnectionUrlProblem,
    });
    if (!answered(url)) return url;
    answer.url = url.trim();
    return DONE;
  };
  const nameStep: Step = async () => {
    const name = await prompter.input({
      id: 'name',
      position: stepPosition(title, 1, 2),
      prompt: l10n.t('Connection name: what the Data view, data sets and logs show instead of the URL'),
      value: answer.name,
      validate: (value) => connectionNameProblem(value, taken),
    });
    if (!answered(name)) return name;
    answer.name = name.trim();
    return urlStep;
  };
  return (await runSteps(nameStep)) ? answer : undefined;
}
