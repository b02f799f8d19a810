import type { FileMetaData, SchemaElement, SchemaTree } from 'hyparquet' with { 'resolution-mode': 'import' };
import { MAX_COLUMN_NAME, MAX_COLUMNS } from '../../engine';

/** Bad Parquet input: a message for the caller and the column it is about, when one is. */
export class ParquetInputError extends Error {
  constructor(
    message: string,
    readonly column: string | null = null,
  ) {
    super(message);
  }
}

/** What the reader does with a column's decoded values before the engine types them. */
export type ParquetColumnKind = 'plain' | 'float32' | 'decimal' | 'time';

export interface ParquetColumn {
  name: string;
  kind: ParquetColumnKind;
  /** Decimal: digits after the point. Time: digits of a second (3 millis, 6 micros, 9 nanos). */
  scale: number;
}

/** The codecs hyparquet reads itself (snappy) or through hyparquet-compressors. */
const READABLE_CODECS = new Set(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'LZ4_RAW', 'ZSTD']);

const NESTED_TYPES = new Set(['LIST', 'MAP', 'MAP_KEY_VALUE', 'VARIANT']);
const UNUSABLE_TYPES = new Set(['INTERVAL', 'BSON', 'GEOMETRY', 'GEOGRAPHY', 'FILE']);
const TIME_DIGITS = { MILLIS: 3, MICROS: 6, NANOS: 9 } as const;

/**
 * The top-level columns of a Parquet file and how each is read, checked before any row is decoded: a nested (list,
 * map, struct) column, a type that cannot be a feature or a compression hyparquet cannot read is a ParquetInputError
 * naming the column.
 */
export function parquetColumns(metadata: FileMetaData, root: SchemaTree): ParquetColumn[] {
  if (root.children.length > MAX_COLUMNS) {
    throw new ParquetInputError(`The file has ${root.children.length.toLocaleString('en-US')} columns, more than the ${MAX_COLUMNS.toLocaleString('en-US')} a dataset may have`, null);
  }
  const long = root.children.find((child) => child.element.name.length > MAX_COLUMN_NAME);
  if (long) {
    throw new ParquetInputError(`A column's name has ${long.element.name.length} characters, more than the ${MAX_COLUMN_NAME} a column name may have`, null);
  }
  const columns = root.children.map(columnOf);
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const codec = chunk.meta_data?.codec;
      if (codec && !READABLE_CODECS.has(codec)) {
        const column = chunk.meta_data?.path_in_schema[0] ?? null;
        throw new ParquetInputError(
          `Column ${column} is compressed with ${codec}, which cannot be read; write the file with snappy, gzip, brotli, lz4 or zstd (or uncompressed)`,
          column,
        );
      }
    }
  }
  return columns;
}

function columnOf(node: SchemaTree): ParquetColumn {
  const element = node.element;
  const name = element.name;
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (node.children.length > 0 || element.repetition_type === 'REPEATED' || (annotation && NESTED_TYPES.has(annotation))) {
    throw new ParquetInputError(`Column ${name} is a nested column (a list, map or struct), which cannot be used as a feature; flatten it or leave it out`, name);
  }
  if (annotation && UNUSABLE_TYPES.has(annotation)) {
    throw new ParquetInputError(`Column ${name} holds ${annotation} values, which cannot be used as a feature; convert it to numbers or text, or leave it out`, name);
  }
  if (annotation === 'DECIMAL') return { name, kind: 'decimal', scale: element.logical_type?.type === 'DECIMAL' ? element.logical_type.scale : (element.scale ?? 0) };
  if (element.logical_type?.type === 'TIME') return { name, kind: 'time', scale: TIME_DIGITS[element.logical_type.unit] };
  if (annotation === 'TIME_MILLIS' || annotation === 'TIME_MICROS') return { name, kind: 'time', scale: annotation === 'TIME_MILLIS' ? 3 : 6 };
  if (element.type === 'FIXED_LEN_BYTE_ARRAY' && !annotation) {
    throw new ParquetInputError(`Column ${name} holds binary values, which cannot be used as a feature; leave it out`, name);
  }
  return { name, kind: element.type === 'FLOAT' && !annotation ? 'float32' : 'plain', scale: 0 };
}

/** The element without its decimal annotation, so the reader hands over the unscaled integers (or bytes). */
export function withoutDecimal(element: SchemaElement): SchemaElement {
  const { converted_type: converted, logical_type: logical, ...rest } = element;
  return {
    ...rest,
    ...(converted && converted !== 'DECIMAL' ? { converted_type: converted } : {}),
    ...(logical && logical.type !== 'DECIMAL' ? { logical_type: logical } : {}),
  };
}
