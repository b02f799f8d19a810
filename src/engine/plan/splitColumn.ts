import { EngineError } from '../base/errors';
import type { Column, DataFrame } from '../data/frame';
import { splitColumn, type SplitSpec } from '../params/split';

/**
 * The column a time or group split goes by, checked against the rows (null for the random split): it must exist and
 * not be the target; a time column must hold numbers or dates.
 */
export function checkedSplitColumn(
  frame: Pick<DataFrame, 'has' | 'names' | 'select'>,
  split: SplitSpec | undefined,
  target: string,
): { kind: 'time' | 'group'; column: Column; field: string } | null {
  const by = splitColumn(split);
  if (!by) return null;
  if (!frame.has(by.column)) throw new EngineError(`${by.field} names no column ${by.column}; the columns are: ${frame.names.join(', ')}`, by.field);
  if (by.column === target) throw new EngineError(`${by.field} cannot be the target column ${target}`, by.field);
  const column = frame.select([by.column]).column(by.column);
  if (by.kind === 'time' && column.storage !== 'number') {
    throw new EngineError(`${by.field} ${by.column} is a ${column.type} column; a time split needs a column of numbers or dates`, by.field);
  }
  return { kind: by.kind, column, field: by.field };
}
