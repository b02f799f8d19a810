import * as vscode from 'vscode';
import type { XModelsServices } from '../common/services';
import { askVersionsToCompare } from '../flows/compare/compareFlow';
import { PANEL_COMMANDS, type ShownPanel } from '../panels';
import { asVersionRef } from './modelRefs';

/**
 * `xmodels.models.compare`: asks for another version of the same model and opens the comparison of the two. From
 * a version in the Models view it asks only for the other version; from the Command Palette, for the model and
 * both versions.
 */
export class CompareCommand {
  constructor(private readonly services: XModelsServices) {}

  async compare(arg?: unknown): Promise<ShownPanel | undefined> {
    const client = await this.services.getClient();
    const args = await askVersionsToCompare(this.services.prompter, client.models, asVersionRef(arg));
    return args ? vscode.commands.executeCommand<ShownPanel>(PANEL_COMMANDS.compare, args) : undefined;
  }
}
