import { toPython } from '../../modelExport';
import { code, paragraph, type Block } from '../document';
import type { ReportView } from '../view';

export const SCORING = { id: 'scoring', text: 'Scoring with Python' } as const;

/** How to score rows without the service: the version exported as a Python module, as "Export Model as Python" writes it. */
export function scoringSection(view: ReportView): Block[] {
  const { version } = view.input;
  const preprocessed = version.trained_preprocessor ?? version.linked_preprocessor;
  return [
    { kind: 'heading', level: 2, ...SCORING },
    paragraph(
      'This module scores rows as the service does, with the Python standard library only. Save it as ',
      code('model.py'),
      '; then ',
      code('python model.py rows.csv'),
      ' prints one JSON object per row of the CSV, and in Python ',
      code('from model import score_row'),
      ' gives ',
      code('score_row(row)'),
      ', which takes a mapping from column name to value and returns the prediction with its contributions.',
    ),
    ...(preprocessed ? [paragraph('This version applies a preprocessor before it predicts: the module expects rows whose columns are already preprocessed.')] : []),
    { kind: 'code', language: 'python', code: toPython(view.tables) },
  ];
}
