import { commentText } from '../codeText/comment';
import { pyString } from '../codeText/python';
import { pyNumber, pyTuple } from './pythonLiterals';
import { PAIR_SCORING, PAIRS_COMMENT, PAIRS_DOC, pairsEntry, pairsSpreadEntry } from './pythonPairs';
import type { FeatureTable, Link, ScoringTables, Scorer } from './scoringTables';

const pyLabel = (label: string | number): string => (typeof label === 'number' ? String(label) : pyString(label));

function featureEntry(f: FeatureTable, indent: string): string {
  if (f.kind === 'numeric') {
    return `${indent}${pyString(f.name)}: ("numeric", ${pyTuple(f.uppers.map(pyNumber))}, ${pyTuple(f.scores.map(pyNumber))}, ${pyNumber(f.missing)}),`;
  }
  const pairs = f.categories.map((c, i) => `${pyString(c)}: ${pyNumber(f.scores[i])}`);
  return `${indent}${pyString(f.name)}: ("categorical", {${pairs.join(', ')}}, ${pyNumber(f.missing)}),`;
}

/** The features' standard deviations across the bags, as data beside their steps: (one per bin, missing-value bin's). */
function spreadEntry(features: readonly FeatureTable[], indent: string): string[] {
  if (features.every((f) => f.missingStd === 0 && f.stds.every((v) => v === 0))) return [];
  return [
    `${indent}"score_std": {`,
    ...features.map((f) => `${indent}    ${pyString(f.name)}: (${pyTuple(f.stds.map(pyNumber))}, ${pyNumber(f.missingStd)}),`),
    `${indent}},`,
  ];
}

/** One partition's entry of MODELS, indented by `indent`; with `pairs` (the model has pair terms), its pair terms. */
export function scorerEntry(key: string, scorer: Scorer, pairs: boolean, indent = '    '): string[] {
  const range = scorer.range.map((v) => (v === null ? 'None' : pyNumber(v)));
  return [
    `${indent}${pyString(key)}: {`,
    `${indent}    "base_value": ${pyNumber(scorer.baseValue)},`,
    `${indent}    "features": {`,
    ...scorer.features.map((f) => featureEntry(f, `${indent}        `)),
    `${indent}    },`,
    ...spreadEntry(scorer.features, `${indent}    `),
    ...(pairs ? pairsEntry(scorer.pairs, `${indent}    `) : []),
    ...(pairs ? pairsSpreadEntry(scorer.pairs, `${indent}    `) : []),
    ...(scorer.calibration ? [`${indent}    "calibration": ${pyTuple(scorer.calibration.map(pyNumber))},`] : []),
    `${indent}    "prediction_range": (${range.join(', ')}),`,
    `${indent}},`,
  ];
}

type ProbabilityLink = Exclude<Link, 'range' | 'exp'>;
const PROBABILITY_LINKS: readonly ProbabilityLink[] = ['logistic', 'calibration', 'clip01'];

/** A classifier's probability from its score, by link: as a Python expression of `score` and `model`, and in words. */
const PROBABILITY: Readonly<Record<ProbabilityLink, { code: string; doc: string }>> = {
  logistic: { code: '_logistic(score)', doc: '1 / (1 + exp(-score))' },
  calibration: {
    code: 'model["calibration"][min(100, max(0, math.trunc(score * 100)))]',
    doc: 'the calibration map at trunc(score × 100) (clamped to 0..100)',
  },
  clip01: { code: 'min(1.0, max(0.0, score))', doc: 'the score clipped to [0, 1]' },
};

/** What decides a binary classifier's label: its probability (logistic) or its score (the others). */
const decidedBy = (link: ProbabilityLink): string => (link === 'logistic' ? 'probability' : 'score');

function linkDoc(link: Link): string {
  if (link === 'range') return 'prediction = score clipped to the prediction range seen in training';
  if (link === 'exp') return "prediction = exposure × exp(score), the exposure read from the row's EXPOSURE column (1 where it is missing, not positive, or EXPOSURE is None)";
  return `probability = ${PROBABILITY[link].doc}, the positive label when the ${decidedBy(link)} is above THRESHOLD`;
}

function linkCode(link: Link): string[] {
  if (link === 'exp') {
    return [
      '    exposure = None if EXPOSURE is None else _number(row.get(EXPOSURE))',
      '    prediction = (exposure if exposure is not None and exposure > 0 else 1.0) * math.exp(score)',
    ];
  }
  if (link === 'range') {
    return [
      '    low, high = model["prediction_range"]',
      '    prediction = score if low is None else max(low, score)',
      '    prediction = prediction if high is None else min(high, prediction)',
    ];
  }
  return [`    probability = ${PROBABILITY[link].code}`, `    prediction = LABELS[1] if ${decidedBy(link)} > THRESHOLD else LABELS[0]`];
}

/** How a class model's probability follows from its score, one line per link. */
export const PROBABILITY_DOC = PROBABILITY_LINKS.map((link) => `  ${link}: ${PROBABILITY[link].doc}`);

/** `_probability(link, model, score)`: a class model's probability from its score, by its link. */
export function pythonProbability(): string[] {
  const last = PROBABILITY_LINKS[PROBABILITY_LINKS.length - 1];
  return [
    'def _probability(link, model, score):',
    ...PROBABILITY_LINKS.slice(0, -1).flatMap((link) => [`    if link == ${pyString(link)}:`, `        return ${PROBABILITY[link].code}`]),
    `    return ${PROBABILITY[last].code}`,
  ];
}

/**
 * The module docstring: what the module scores, how, and how to run it. The names in it are comment text; raw, so
 * that a backslash in a name stays text.
 */
export function pythonDocstring(summary: string, outputs: string, how: string[], partitionOn: string | null): string[] {
  return [
    `r"""${summary}`,
    '',
    'Standard library only. score_row(row) takes a mapping from column name to value (numbers, or text as',
    `csv.DictReader reads it) and returns a dict with ${outputs}.`,
    ...how,
    'A numeric bin covers (lower, upper]; a date (YYYY-MM-DD[ HH:MM[:SS[.fff]]][Z or +HH:MM], also with /, or',
    'Mon DD YYYY) is its milliseconds since 1970-01-01 UTC there, as the service reads it; a missing value, text that',
    `is neither a number nor a date and an unseen category score the feature's missing-value bin.${partitionOn ? ` Rows are routed by ${commentText(partitionOn)}; an unseen value uses "__dataset__".` : ''}`,
    '',
    'Run it as a script to score a CSV: python model.py rows.csv  (one JSON object per row on standard output).',
    '"""',
    'import bisect',
    'import datetime',
    'import math',
    'import re',
    '',
  ];
}

/** What MODELS holds, as a comment above it; `pairs`: the model has pair terms. */
export const modelsComment = (pairs: boolean): string[] => [
  '# numeric: (upper bounds, one score per bin, missing-value score); categorical: ({category: score}, missing-value score).',
  '# score_std and pairs_std (a model fitted in bags): each score\'s standard deviation across the bags, laid out as the scores.',
  ...(pairs ? PAIRS_COMMENT : []),
];

/** The characters JavaScript's `trim()` removes, as Python escapes (the service trims a date's text so). */
const JS_TRIMMED = '\\t\\n\\v\\f\\r \\xa0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * `_date(value)`: a date written as text as milliseconds since 1970-01-01 UTC, read by the rules of the service's
 * `parseDate` (src/engine/data/dates.ts), with the fields counted as JavaScript's `Date.UTC` counts them.
 */
const PYTHON_DATES = [
  '_ISO_DATE = re.compile(r"([0-9]{4})[-/]([0-9]{1,2})[-/]([0-9]{1,2})(?:[ T]([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,3})[0-9]*)?)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?")',
  '_MONTH_FIRST_DATE = re.compile(r"([A-Za-z]{3})[A-Za-z]*\\.? ([0-9]{1,2}),? ([0-9]{4})")',
  '_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")',
  `_SPACES = "${JS_TRIMMED}"`,
  '',
  '',
  'def _utc_ms(year, month, day, hour=0, minute=0, second=0, ms=0):',
  '    """Milliseconds since 1970-01-01 UTC as Date.UTC counts them: years 0 to 99 are 1900 to 1999, and a day, hour,',
  '    minute or second past its range carries over."""',
  '    year = year + 1900 if 0 <= year <= 99 else year',
  '    days = (datetime.date(year, month, 1) - datetime.date(1970, 1, 1)).days + day - 1',
  '    return float((((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + ms)',
  '',
  '',
  'def _date(value):',
  '    """Milliseconds since 1970-01-01 UTC of a date written as text (a time without a zone is UTC), or None."""',
  '    if not isinstance(value, str):',
  '        return None',
  '    text = value.strip(_SPACES)',
  '    iso = _ISO_DATE.fullmatch(text)',
  '    if iso:',
  '        year, month, day, hour, minute, second, ms, zone = iso.groups()',
  '        if not 1 <= int(month) <= 12 or not 1 <= int(day) <= 31:',
  '            return None',
  '        time = (int(hour or 0), int(minute or 0), int(second or 0), int((ms or "0").ljust(3, "0")))',
  '        t = _utc_ms(int(year), int(month), int(day), *time)',
  '        if zone and zone != "Z":',
  '            digits = zone[1:].replace(":", "")',
  '            t -= (-1 if zone[0] == "-" else 1) * (int(digits[:2]) * 60 + int(digits[2:])) * 60000',
  '        return t',
  '    month_first = _MONTH_FIRST_DATE.fullmatch(text)',
  '    if month_first:',
  '        name, day, year = month_first.groups()',
  '        if name.lower() not in _MONTHS or not 1 <= int(day) <= 31:',
  '            return None',
  '        return _utc_ms(int(year), _MONTHS.index(name.lower()) + 1, int(day))',
  '    return None',
  '',
  '',
];

/**
 * The scoring helpers every exported module shares: number and category parsing, a feature's contribution,
 * the partition of a row (among PARTITIONS) and `_score(model, row)` → (score, contributions over FEATURES); with
 * `pairs`, `_score(model, row, pairs)` → (score, contributions, the contributions of the named pair terms).
 */
export function pythonRuntime(logistic: boolean, pairs: boolean): string[] {
  return [
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
    ...PYTHON_DATES,
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
    '        number = _date(value) if number is None else number',
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
    ...(logistic ? ['', 'def _logistic(score):', '    if score < -709:', '        return 0.0', '    return 1 / (1 + math.exp(-score))', '', ''] : ['']),
    'def _partition(row):',
    '    if PARTITION_ON is None:',
    '        return "__dataset__"',
    '    keys = _category_keys(row.get(PARTITION_ON))',
    '    return next((key for key in keys if key in PARTITIONS and key != "__dataset__"), "__dataset__")',
    '',
    '',
    `def _score(model, row${pairs ? ', pairs' : ''}):`,
    '    contributions = dict.fromkeys(FEATURES, 0.0)',
    ...(pairs ? ['    interactions = dict.fromkeys(pairs, 0.0)'] : []),
    '    score = model["base_value"]',
    '    for name, bins in model["features"].items():',
    '        contribution = _contribution(bins, row.get(name))',
    '        contributions[name] = contribution',
    '        score += contribution',
    ...(pairs ? [...PAIR_SCORING, '    return score, contributions, interactions'] : ['    return score, contributions']),
    '',
    '',
  ];
}

/** `score_rows` and the command line that scores a CSV. */
export const PYTHON_MAIN = [
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

/** The constants every module starts with; PARTITIONS are the partition keys, `__dataset__` first. */
export function pythonConstants(target: string, partitionOn: string | null, features: string[], partitions: string[]): string[] {
  return [
    `TARGET = ${pyString(target)}`,
    `PARTITION_ON = ${partitionOn === null ? 'None' : pyString(partitionOn)}`,
    `PARTITIONS = ${pyTuple(partitions.map(pyString))}`,
    `FEATURES = ${pyTuple(features.map(pyString))}`,
  ];
}

/**
 * A self-contained Python module (standard library only) that scores rows of a binary classifier or regressor as the
 * service does: `score_row(row)` and `score_rows(rows)`, plus a command line that reads a CSV and writes one JSON
 * line per row.
 */
export function binaryPython(tables: ScoringTables): string {
  const classifier = tables.modelType === 'classifier';
  const pairs = tables.pairs.length > 0;
  const labels = tables.labels ?? [0, 1];
  const explained = `"score", "base_value" and "contributions"${pairs ? ' (by feature), "interaction_contributions" (by pair term)' : ''}`;
  const outputs = classifier ? `"prediction" (a label of LABELS), "probability" (of LABELS[1]), ${explained}` : `"prediction", ${explained}`;
  const lines = [
    ...pythonDocstring(
      `${commentText(tables.title)}: an XModels ${tables.modelType} (${tables.method} method) of ${commentText(tables.target)}, as a scoring function.`,
      outputs,
      [
        `score = base value + the sum of every feature's contribution${pairs ? " and every pair term's" : ''};`,
        ...(pairs ? PAIRS_DOC : []),
        `${linkDoc(tables.link)}.`,
      ],
      tables.partitionOn,
    ),
    ...pythonConstants(tables.target, tables.partitionOn, tables.features, tables.partitions.map((p) => p.key)),
    ...(pairs ? [`PAIRS = ${pyTuple(tables.pairs.map(pyString))}`] : []),
    ...(classifier ? ['THRESHOLD = 0.5', `LABELS = (${pyLabel(labels[0])}, ${pyLabel(labels[1])})  # (negative, positive)`] : []),
    ...(tables.link === 'exp' ? [`EXPOSURE = ${tables.exposure === null ? 'None' : pyString(tables.exposure)}`] : []),
    '',
    `# Per partition: the base value and every feature's bins${pairs ? ' and pair term\'s cells' : ''}.`,
    ...modelsComment(pairs),
    'MODELS = {',
    ...tables.partitions.flatMap((p) => scorerEntry(p.key, p.scorer, pairs)),
    '}',
    '',
    ...pythonRuntime(tables.link === 'logistic', pairs),
    'def score_row(row):',
    '    """Scores one row (a mapping from column name to value)."""',
    '    model = MODELS[_partition(row)]',
    pairs ? '    score, contributions, interactions = _score(model, row, PAIRS)' : '    score, contributions = _score(model, row)',
    ...linkCode(tables.link),
    '    result = {"prediction": prediction, "score": score, "base_value": model["base_value"], "contributions": contributions}',
    ...(pairs ? ['    result["interaction_contributions"] = interactions'] : []),
    ...(classifier ? ['    result["probability"] = probability'] : []),
    '    return result',
    '',
    '',
    ...PYTHON_MAIN,
  ];
  return lines.join('\n');
}
