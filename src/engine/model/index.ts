// The model as the rest of the code base sees it without fitting one: its types and fit options, the limits on its
// columns and classes, and the operations of a hand edit.
export * from './types';
export { MAX_COLUMN_NAME, MAX_COLUMNS } from '../data/frame';
export { MAX_CLASSES, MIN_CLASS_ROWS } from './limits';
export { EDIT_OPS, MISSING_BIN, type EditOp, type StepEdit } from './edits';
