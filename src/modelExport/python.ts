import type { FeatureTable, Link, ScoringTables, Scorer } from './scoringTables';

/** A float literal Python reads back as the same double (JavaScript's shortest round-trip form). */
export function pyNumber(value: number): string {
  if (Number.isNaN(value)) return 'math.nan';
  if (!Number.isFinite(value)) return value > 0 ? 'math.inf' : '-math.inf';
  const text = String(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

const pyString = (text: string): string => JSON.stringify(text);
const pyLabel = (label: string | number): string => (typeof label === 'number' ? String(label) : pyString(label));
const pyTuple = (items: string[]): string => (items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`);

function featureEntry(f: FeatureTable, indent: string): string {
  if (f.kind === 'numeric') {
    return `${indent}${pyString(f.name)}: ("numeric", ${pyTuple(f.uppers.map(pyNumber))}, ${pyTuple(f.scores.map(pyNumber))}, ${pyNumber(f.missing)}),`;
  }
  const pairs = f.categories.map((c, i) => `${pyString(c)}: ${pyNumber(f.scores[i])}`);
  return `${indent}${pyString(f.name)}: ("categorical", {${pairs.join(', ')}}, ${pyNumber(f.missing)}),`;
}

function scorerEntry(key: string, scorer: Scorer): string[] {
  const range = scorer.range.map((v) => (v === null ? 'None' : pyNumber(v)));
  return [
    `    ${pyString(key)}: {`,
    `        "base_value": ${pyNumber(scorer.baseValue)},`,
    `        "features": {`,
    ...scorer.features.map((f) => featureEntry(f, '            ')),
    '        },',
    ...(scorer.calibration ? [`        "calibration": ${pyTuple(scorer.calibration.map(pyNumber))},`] : []),
    `        "prediction_range": (${range.join(', ')}),`,
    '    },',
  ];
}

const LINK_DOC: Readonly<Record<Link, string>> = {
  logistic: 'probability = 1 / (1 + exp(-score)), the positive label when the probability is above THRESHOLD',
  calibration: 'probability = the calibration map at trunc(score × 100) (clamped to 0..100), the positive label when the score is above THRESHOLD',
  clip01: 'probability = the score clipped to [0, 1], the positive label when the score is above THRESHOLD',
  range: 'prediction = score clipped to the prediction range seen in training',
};

const LINK_CODE: Readonly<Record<Link, string[]>> = {
  logistic: [
    '    probability = _logistic(score)',
    '    prediction = LABELS[1] if probability > THRESHOLD else LABELS[0]',
  ],
  calibration: [
    '    key = min(100, max(0, math.trunc(score * 100)))',
    '    probability = model["calibration"][key]',
    '    prediction = LABELS[1] if score > THRESHOLD else LABELS[0]',
  ],
  clip01: [
    '    probability = min(1.0, max(0.0, score))',
    '    prediction = LABELS[1] if score > THRESHOLD else LABELS[0]',
  ],
  range: [
    '    low, high = model["prediction_range"]',
    '    prediction = score if low is None else max(low, score)',
    '    prediction = prediction if high is None else min(high, prediction)',
  ],
};

/**
 * A self-contained Python module (standard library only) that scores rows as the service does: `score_row(row)`
 * and `score_rows(rows)`, plus a command line that reads a CSV and writes one JSON line per row.
 */
export function toPython(tables: ScoringTables): string {
  const classifier = tables.modelType === 'classifier';
  const labels = tables.labels ?? [0, 1];
  const outputs = classifier
    ? '"prediction" (a label of LABELS), "probability" (of LABELS[1]), "score", "base_value" and "contributions"'
    : '"prediction", "score", "base_value" and "contributions"';
  const lines = [
    `"""${tables.title}: an XModels ${tables.modelType} (${tables.method} method) of ${tables.target}, as a scoring function.`,
    '',
    'Standard library only. score_row(row) takes a mapping from column name to value (numbers, or text as',
    `csv.DictReader reads it) and returns a dict with ${outputs}.`,
    'score = base value + the sum of every feature\'s contribution;',
    `${LINK_DOC[tables.link]}.`,
    'A numeric bin covers (lower, upper]; a missing value, text that is not a number and an unseen category score the',
    `feature's missing-value bin.${tables.partitionOn ? ` Rows are routed by ${tables.partitionOn}; an unseen value uses "__dataset__".` : ''}`,
    '',
    'Run it as a script to score a CSV: python model.py rows.csv  (one JSON object per row on standard output).',
    '"""',
    'import bisect',
    'import math',
    'import re',
    '',
    `TARGET = ${pyString(tables.target)}`,
    `PARTITION_ON = ${tables.partitionOn === null ? 'None' : pyString(tables.partitionOn)}`,
    `FEATURES = ${pyTuple(tables.features.map(pyString))}`,
    ...(classifier ? ['THRESHOLD = 0.5', `LABELS = (${pyLabel(labels[0])}, ${pyLabel(labels[1])})  # (negative, positive)`] : []),
    '',
    '# Per partition: the base value and every feature\'s bins.',
    '# numeric: (upper bounds, one score per bin, missing-value score); categorical: ({category: score}, missing-value score).',
    'MODELS = {',
    ...tables.partitions.flatMap((p) => scorerEntry(p.key, p.scorer)),
    '}',
    '',
    '_NUMBER = re.compile(r"^\\s*[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?\\s*$")',
    '',
    '',
    'def _number(value):',
    '    """A float, or None for a missing value or text that is not a plain decimal number."""',
    '    if value is None or isinstance(value, bool):',
    '        return None',
    '    if isinstance(value, (int, float)):',
    '        return None if value != value else float(value)',
    '    text = str(value)',
    '    return float(text) if _NUMBER.match(text) else None',
    '',
    '',
    'def _category_keys(value):',
    '    """The texts a value may have been stored under: as given, and a number as JavaScript prints it."""',
    '    if value is None or value == "":',
    '        return ()',
    '    number = _number(value)',
    '    if number is None or math.isinf(number):',
    '        return (str(value),)',
    '    printed = str(int(number)) if number.is_integer() and abs(number) < 1e21 else repr(number)',
    '    return (str(value), printed) if isinstance(value, str) else (printed,)',
    '',
    '',
    'def _contribution(bins, value):',
    '    if bins[0] == "numeric":',
    '        _, uppers, scores, missing = bins',
    '        number = _number(value)',
    '        if number is None:',
    '            return missing',
    '        index = bisect.bisect_left(uppers, number)',
    '        return scores[index] if index < len(scores) else missing',
    '    _, scores, missing = bins',
    '    for key in _category_keys(value):',
    '        if key in scores:',
    '            return scores[key]',
    '    return missing',
    '',
    ...(tables.link === 'logistic'
      ? ['', 'def _logistic(score):', '    if score < -709:', '        return 0.0', '    return 1 / (1 + math.exp(-score))', '', '']
      : ['']),
    'def _partition(row):',
    '    if PARTITION_ON is None:',
    '        return "__dataset__"',
    '    keys = _category_keys(row.get(PARTITION_ON))',
    '    return next((key for key in keys if key in MODELS and key != "__dataset__"), "__dataset__")',
    '',
    '',
    'def score_row(row):',
    '    """Scores one row (a mapping from column name to value)."""',
    '    model = MODELS[_partition(row)]',
    '    contributions = dict.fromkeys(FEATURES, 0.0)',
    '    score = model["base_value"]',
    '    for name, bins in model["features"].items():',
    '        contribution = _contribution(bins, row.get(name))',
    '        contributions[name] = contribution',
    '        score += contribution',
    ...LINK_CODE[tables.link],
    '    result = {"prediction": prediction, "score": score, "base_value": model["base_value"], "contributions": contributions}',
    ...(classifier ? ['    result["probability"] = probability'] : []),
    '    return result',
    '',
    '',
    'def score_rows(rows):',
    '    """Scores every row of an iterable of mappings, in order."""',
    '    return [score_row(row) for row in rows]',
    '',
    '',
    'if __name__ == "__main__":',
    '    import csv',
    '    import json',
    '    import sys',
    '',
    '    with open(sys.argv[1], newline="", encoding="utf-8") as file:',
    '        for row in csv.DictReader(file):',
    '            print(json.dumps(score_row(row)))',
    '',
  ];
  return lines.join('\n');
}
