/** Bad input to the engine: `field` names the parameter, column or step at fault. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** A CSV that cannot be read; `line` and `column` are 1-based positions in the text (null for an undecodable byte). */
export class CsvError extends EngineError {
  constructor(
    message: string,
    readonly line: number | null,
    readonly column: number | null,
  ) {
    super(line === null ? message : `${message} (line ${line}, column ${column})`, 'csv');
    this.name = 'CsvError';
  }
}
