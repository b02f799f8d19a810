import { l10n } from '../../l10n/l10n';
import { answered, type Prompter } from '../../prompts/prompter';

/** The message under the query box, or undefined for one SELECT or WITH statement (the service checks the rest). */
export function queryProblem(value: string): string | undefined {
  const query = value.trim().replace(/;\s*$/, '');
  if (!query) return l10n.t('Enter a SELECT statement, e.g. SELECT * FROM sales.orders WHERE year >= 2024.');
  if (!/^(select|with)\b/i.test(query)) return l10n.t('Start with SELECT or WITH: the data set is read with one read-only query.');
  if (query.includes(';')) return l10n.t('Enter one statement only (no ; between statements).');
  return undefined;
}

/** Asks for the SELECT whose rows become a data set of `connection`; undefined when dismissed. */
export async function askQuery(prompter: Prompter, connection: string): Promise<string | undefined> {
  const query = await prompter.input({
    id: 'query',
    position: { title: l10n.t('Train from a query of {0}', connection), canGoBack: false },
    prompt: l10n.t('A SELECT (or WITH … SELECT) statement whose rows to train on; they stay in the database'),
    value: '',
    validate: queryProblem,
  });
  return answered(query) ? query.trim().replace(/;\s*$/, '') : undefined;
}
