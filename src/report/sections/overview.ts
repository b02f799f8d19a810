import type { ModelVersion } from '../../contract/models';
import { code, paragraph, strong, type Block, type Span } from '../document';
import { binaryLabels, dateText, type ReportView } from '../view';

export const PREDICTS = { id: 'predicts', text: 'What the model predicts' } as const;

/** How a prediction follows from the score, for each kind of model and link. */
function scoreWords(view: ReportView): string {
  const link = view.link;
  if (link === 'range') return 'That sum is the prediction, kept within the range of the training targets.';
  const of = view.kind === 'multiclass' ? "A class model's probability is" : 'The probability is';
  if (link === 'logistic') return `That sum is a score in log-odds. ${of} 1 / (1 + exp(−score)).`;
  if (link === 'calibration') return `${of} read from a calibration map of the score, learnt on the training rows.`;
  return `${of} the score, clipped to [0, 1].`;
}

function whatItPredicts(view: ReportView): Span[] {
  const { model } = view.input;
  const tables = view.tables;
  const start: Span[] = [code(model.model_name), ' predicts ', strong(model.target_name), ': '];
  if (tables.modelType === 'regressor') return [...start, 'a regressor, it predicts the value of the target.'];
  if (tables.modelType === 'multiclass') {
    return [
      ...start,
      `a multiclass classifier over ${tables.classes.length} classes (`,
      ...tables.classes.flatMap((c, i): Span[] => [...(i ? [', '] : []), code(c)]),
      '). One model per class scores it against the rest; the class probabilities are theirs normalised to sum to 1, and the prediction is the most probable class.',
    ];
  }
  const [negative, positive] = binaryLabels(view);
  return [...start, 'a binary classifier, it gives the probability of ', code(positive), ' (against ', code(negative), ') and predicts ', code(positive), ' when that is above 0.5.'];
}

function origin(version: ModelVersion): string {
  const parent = version.parent_version_id ? ` from version ${version.parent_version_id}` : '';
  const how = { train: 'trained', refit: `refitted${parent}`, upload: 'uploaded as a fitted model', autotrain: 'trained by autotrain' }[version.source];
  const copy = version.copied_from;
  return copy ? `${how}; a copy of ${copy.model_name} v${copy.version_number} (version ${copy.version_id}, created ${dateText(copy.created)} by ${copy.created_by})` : how;
}

function preprocessorText(version: ModelVersion): string {
  const used = version.trained_preprocessor ?? version.linked_preprocessor;
  if (!used) return 'none';
  const how = version.trained_preprocessor ? 'trained with' : 'linked';
  return `${how} preprocessor ${used.preprocessor_id}, version ${used.version_id}: it is applied to every row before the model scores it`;
}

/** The first section: what the model predicts, how a prediction is made, and where the version comes from. */
export function overviewSection(view: ReportView): Block[] {
  const { model, version, generatedAt, generator } = view.input;
  const features = view.tables.features.length;
  const method = typeof version.parameters.method === 'string' ? version.parameters.method : view.tables.method;
  const facts: [string, string][] = [
    ['Model', model.model_name],
    ...(model.model_description ? ([['Description', model.model_description]] as [string, string][]) : []),
    ['Version', `v${version.version_number} of ${model.number_of_versions}`],
    ['Created', `${dateText(version.created)} by ${version.created_by}`],
    ['Origin', origin(version)],
    ['Fit method', method],
    ['Algorithm', model.algorithm],
    ...(version.execution ? ([['Training ran', version.execution === 'pushdown' ? 'in the database where its rows live' : 'in the service']] as [string, string][]) : []),
    ['Preprocessor', preprocessorText(version)],
    ['Model id', model.model_id],
    ['Version id', version.version_id],
    ['Report made', `${dateText(generatedAt)} by ${generator}`],
  ];
  const partitioned = model.partition_on
    ? [
        paragraph(
          'It is partitioned on ',
          code(model.partition_on),
          `: ${view.parts.length - 1} of its values have a model of their own, and a row with any other value is scored by the model of all data.`,
        ),
      ]
    : [];
  return [
    { kind: 'heading', level: 2, ...PREDICTS },
    paragraph(...whatItPredicts(view)),
    paragraph(`Every prediction starts from a base value and adds one contribution for each of its ${features} features, read from that feature's steps below. ${scoreWords(view)}`),
    ...partitioned,
    { kind: 'facts', rows: facts },
  ];
}
