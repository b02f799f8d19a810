import { commentText } from '../codeText/comment';
import { pyString } from '../codeText/python';
import { MODELS_COMMENT, PROBABILITY_DOC, PYTHON_MAIN, pythonConstants, pythonDocstring, pythonRuntime, pythonProbability, pyTuple, scorerEntry } from './python';
import type { MulticlassScoringTables } from './scoringTables';

/**
 * A self-contained Python module (standard library only) that scores rows of a one-vs-rest multiclass model as the
 * service does: every class model's score and probability, the probabilities normalised to sum to 1, and the most
 * probable class; `score_row(row)`, `score_rows(rows)` and a command line that writes one JSON line per CSV row.
 */
export function multiclassPython(tables: MulticlassScoringTables): string {
  const links = tables.classTables.map((t) => t.link);
  const partitions = tables.classTables[0].partitions.map((p) => p.key);
  const lines = [
    ...pythonDocstring(
      `${commentText(tables.title)}: an XModels multiclass classifier (one-vs-rest, ${tables.method} method) of ${commentText(tables.target)}, as a scoring function.`,
      '"prediction" (a class of CLASSES), "class_probabilities", "class_scores", "class_base_values" and "class_contributions" (each by class)',
      [
        'Every class has its own model of that class against the rest: its score = base value + the sum of every',
        'feature\'s contribution, and its probability follows from the score by the class\'s link (LINKS):',
        ...PROBABILITY_DOC,
        'The class probabilities are those probabilities divided by their sum (equal shares when the sum is 0); the',
        'prediction is the most probable class, the first in CLASSES order on a tie.',
      ],
      tables.partitionOn,
    ),
    ...pythonConstants(tables.target, tables.partitionOn, tables.features, partitions),
    `CLASSES = ${pyTuple(tables.classes.map(pyString))}`,
    `LINKS = {${tables.classes.map((c, k) => `${pyString(c)}: ${pyString(links[k])}`).join(', ')}}`,
    '',
    '# Per class, per partition: the base value and every feature\'s bins of that class\'s model.',
    ...MODELS_COMMENT,
    'MODELS = {',
    ...tables.classTables.flatMap((t, k) => [
      `    ${pyString(tables.classes[k])}: {`,
      ...t.partitions.flatMap((p) => scorerEntry(p.key, p.scorer, '        ')),
      '    },',
    ]),
    '}',
    '',
    ...pythonRuntime(links.includes('logistic')),
    ...pythonProbability(),
    '',
    '',
    'def score_row(row):',
    '    """Scores one row (a mapping from column name to value)."""',
    '    partition = _partition(row)',
    '    scores, raw, base_values, contributions = {}, {}, {}, {}',
    '    for name in CLASSES:',
    '        model = MODELS[name][partition]',
    '        scores[name], contributions[name] = _score(model, row)',
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
    '    }',
    '',
    '',
    ...PYTHON_MAIN,
  ];
  return lines.join('\n');
}
