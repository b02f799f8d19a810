import { commentText } from '../codeText/comment';
import { pyString } from '../codeText/python';
import { modelsComment, PROBABILITY_DOC, PYTHON_MAIN, pythonConstants, pythonDocstring, pythonRuntime, pythonProbability, scorerEntry } from './python';
import { pyTuple } from './pythonLiterals';
import { PAIRS_DOC } from './pythonPairs';
import type { MulticlassScoringTables, ScoringTables } from './scoringTables';

/**
 * A self-contained Python module (standard library only) that scores rows of a one-vs-rest multiclass model as the
 * service does: every class model's score and probability, the probabilities normalised to sum to 1, and the most
 * probable class; `score_row(row)`, `score_rows(rows)` and a command line that writes one JSON line per CSV row.
 */
export function multiclassPython(tables: MulticlassScoringTables): string {
  const links = tables.classTables.map((t) => t.link);
  const partitions = tables.classTables[0].partitions.map((p) => p.key);
  const pairs = tables.classTables.some((t) => t.pairs.length > 0);
  const byClass = (value: (t: ScoringTables) => string): string => `{${tables.classes.map((c, k) => `${pyString(c)}: ${value(tables.classTables[k])}`).join(', ')}}`;
  const lines = [
    ...pythonDocstring(
      `${commentText(tables.title)}: an XModels multiclass classifier (one-vs-rest, ${tables.method} method) of ${commentText(tables.target)}, as a scoring function.`,
      `"prediction" (a class of CLASSES), "class_probabilities", "class_scores", "class_base_values"${pairs ? ', "class_contributions" and "class_interaction_contributions"' : ' and "class_contributions"'} (each by class)`,
      [
        'Every class has its own model of that class against the rest: its score = base value + the sum of every',
        `feature's contribution${pairs ? " and of each of the class's pair terms (PAIRS)" : ''}, and its probability follows from the score by the class's link (LINKS):`,
        ...PROBABILITY_DOC,
        'The class probabilities are those probabilities divided by their sum (equal shares when the sum is 0); the',
        'prediction is the most probable class, the first in CLASSES order on a tie.',
        ...(pairs ? PAIRS_DOC : []),
      ],
      tables.partitionOn,
    ),
    ...pythonConstants(tables.target, tables.partitionOn, tables.features, partitions),
    `CLASSES = ${pyTuple(tables.classes.map(pyString))}`,
    `LINKS = ${byClass((t) => pyString(t.link))}`,
    ...(pairs ? [`PAIRS = ${byClass((t) => pyTuple(t.pairs.map(pyString)))}`] : []),
    '',
    `# Per class, per partition: the base value and every feature's bins${pairs ? " and pair term's cells" : ''} of that class's model.`,
    ...modelsComment(pairs),
    'MODELS = {',
    ...tables.classTables.flatMap((t, k) => [
      `    ${pyString(tables.classes[k])}: {`,
      ...t.partitions.flatMap((p) => scorerEntry(p.key, p.scorer, pairs, '        ')),
      '    },',
    ]),
    '}',
    '',
    ...pythonRuntime(links.includes('logistic'), pairs),
    ...pythonProbability(),
    '',
    '',
    'def score_row(row):',
    '    """Scores one row (a mapping from column name to value)."""',
    '    partition = _partition(row)',
    `    scores, raw, base_values, contributions${pairs ? ', interactions' : ''} = {}, {}, {}, {}${pairs ? ', {}' : ''}`,
    '    for name in CLASSES:',
    '        model = MODELS[name][partition]',
    pairs ? '        scores[name], contributions[name], interactions[name] = _score(model, row, PAIRS[name])' : '        scores[name], contributions[name] = _score(model, row)',
    '        base_values[name] = model["base_value"]',
    '        raw[name] = _probability(LINKS[name], model, scores[name])',
    '    total = 0.0',
    '    for name in CLASSES:',
    '        total += raw[name]',
    '    probabilities = {name: raw[name] / total if total > 0 else 1 / len(CLASSES) for name in CLASSES}',
    '    prediction = CLASSES[0]',
    '    for name in CLASSES:',
    '        if probabilities[name] > probabilities[prediction]:',
    '            prediction = name',
    '    return {',
    '        "prediction": prediction,',
    '        "class_probabilities": probabilities,',
    '        "class_scores": scores,',
    '        "class_base_values": base_values,',
    '        "class_contributions": contributions,',
    ...(pairs ? ['        "class_interaction_contributions": interactions,'] : []),
    '    }',
    '',
    '',
    ...PYTHON_MAIN,
  ];
  return lines.join('\n');
}
