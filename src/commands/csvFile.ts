import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { sniffCsv, type CsvSample } from '../common/csvColumns';
import { UserFacingError } from '../common/errors';
import type { QuickInputs } from '../common/multiStepInput';

const SAMPLE_BYTES = 1024 * 1024;

/** The CSV a command works on: the Explorer's file, or one the user picks. */
export async function csvUriFrom(arg: unknown, inputs: QuickInputs, title: string): Promise<vscode.Uri> {
  if (arg instanceof vscode.Uri) return arg;
  return inputs.openCsv(title);
}

/** Reads the header and the first megabyte of rows and infers column kinds. */
export async function sampleCsv(uri: vscode.Uri): Promise<CsvSample> {
  if (uri.scheme !== 'file') throw new UserFacingError(vscode.l10n.t('Only files on disk can be used (got {0}).', uri.toString()));
  const handle = await open(uri.fsPath, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserFacingError(vscode.l10n.t('Cannot read {0}: {1}.', basename(uri.fsPath), error.code ?? error.message));
  });
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    const sample = sniffCsv(buffer.subarray(0, bytesRead));
    if (sample.rowsSampled === 0) throw new UserFacingError(vscode.l10n.t('{0} has a header but no rows.', basename(uri.fsPath)));
    return sample;
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    throw new UserFacingError(vscode.l10n.t('{0} is not a readable CSV file: {1}', basename(uri.fsPath), (error as Error).message));
  } finally {
    await handle.close();
  }
}

export function fileName(uri: vscode.Uri): string {
  return basename(uri.fsPath);
}
