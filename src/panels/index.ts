import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { comparePanel } from './comparePanel';
import { datasetSummaryPanel } from './datasetSummaryPanel';
import { evaluationPanel } from './evaluationPanel';
import { featureInfoPanel } from './featureInfoPanel';
import { LastTextEditor } from './lastTextEditor';
import { PanelHost, type PanelDefinition, type ShownPanel } from './panelHost';
import { profilePanel, type EditsSaver } from './profilePanel';
import type { PanelKind, ProfileArgs } from '../views/protocol';
import { visualizationPanel } from './visualizationPanel';

export { VIEW_TYPES } from '../views/protocol';
export type { ShownPanel, PanelLoad } from './panelHost';

/** Command ids of the panels (declared in package.json). */
export const PANEL_COMMANDS: Readonly<Record<PanelKind, string>> = {
  profile: 'xmodels.panels.profile',
  evaluation: 'xmodels.panels.evaluation',
  featureInfo: 'xmodels.panels.featureInfo',
  datasetSummary: 'xmodels.panels.datasetSummary',
  visualization: 'xmodels.panels.visualization',
  compare: 'xmodels.panels.compare',
};

const MISSING_ARGUMENT: Readonly<Record<PanelKind, () => string>> = {
  profile: () => vscode.l10n.t('Open the profile from a model version or partition in the XModels view.'),
  evaluation: () => vscode.l10n.t('Open the evaluation from a partition of a model version in the XModels view.'),
  featureInfo: () => vscode.l10n.t('Open the feature info from a model version in the XModels view.'),
  datasetSummary: () => vscode.l10n.t('Summarize a CSV file first (XModels: Summarize Dataset) to see its summary.'),
  visualization: () => vscode.l10n.t('Pick a goal to visualize (XModels: Visualize Goal) to see its chart code.'),
  compare: () => vscode.l10n.t('Compare two versions from a version in the XModels view (Compare with…).'),
};

export interface RegisteredPanels extends vscode.Disposable {
  /** The object of the profile panel in front, for commands run from its title bar. */
  activeProfile(): ProfileArgs | undefined;
}

/**
 * Registers the panel commands and the serializers that restore open panels after a reload. Each command
 * resolves to the shown panel (`ShownPanel`), whose `loaded` settles once its data has been answered. `edits` saves
 * the profile panel's hand edits as a new version.
 */
export function registerPanels(services: XModelsServices, edits: EditsSaver): RegisteredPanels {
  const editors = new LastTextEditor();
  const disposables: vscode.Disposable[] = [editors];

  function register<K extends PanelKind>(definition: PanelDefinition<K>): PanelHost<K> {
    const host = new PanelHost(definition, services.extensionUri, services.log);
    disposables.push(host);
    disposables.push(
      services.registerCommand(PANEL_COMMANDS[definition.kind], (raw?: unknown): ShownPanel => {
        const args = definition.parseArgs(raw);
        if (!args) throw new UserFacingError(MISSING_ARGUMENT[definition.kind]());
        return host.show(args);
      }),
    );
    return host;
  }

  const profiles = register(profilePanel(services, edits));
  register(evaluationPanel(services));
  register(featureInfoPanel(services));
  register(datasetSummaryPanel());
  register(visualizationPanel(services, editors));
  register(comparePanel(services));

  const all = vscode.Disposable.from(...disposables);
  return { activeProfile: () => profiles.activeArgs(), dispose: () => all.dispose() };
}
