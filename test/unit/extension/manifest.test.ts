import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIT_METHOD, DEFAULT_PARAMS, FIT_METHODS, PARAM_RANGES } from '../../../src/engine';
import { VIEW_TYPES } from '../../../src/views/protocol';
import { sourceFiles } from './fixtures';

const root = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const declared: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);

describe('package.json contributions', () => {
  it('activates on every webview panel type, so open panels restore after a reload', () => {
    for (const viewType of Object.values(VIEW_TYPES)) {
      assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${viewType}`), `onWebviewPanel:${viewType} is missing`);
    }
  });

  it('declares every command of the command table with a category and a codicon', () => {
    const table = [
      'xmodels.models.refresh', 'xmodels.models.loadMore', 'xmodels.models.train', 'xmodels.models.trainVersion', 'xmodels.models.refit',
      'xmodels.models.linkPreprocessor', 'xmodels.models.predict', 'xmodels.models.copyId', 'xmodels.models.delete',
      'xmodels.connection.useHosted', 'xmodels.connection.useLocal', 'xmodels.connection.retry', 'xmodels.connection.selectTeam',
      'xmodels.connection.showLog', 'xmodels.panels.profile', 'xmodels.panels.evaluation', 'xmodels.panels.featureInfo',
      'xmodels.panels.datasetSummary', 'xmodels.panels.visualization', 'xmodels.autotrain.start', 'xmodels.autotrain.summarize',
      'xmodels.autotrain.visualizeGoal', 'xmodels.autotrain.insights', 'xmodels.autotrain.trainWithLabel', 'xmodels.preprocessors.createFromSteps',
    ];
    for (const id of table) assert.ok(declared.includes(id), `${id} is not declared`);
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'XModels', command.command);
      assert.match(command.icon, /^\$\([a-z-~]+\)$/, command.command);
    }
  });

  // The same, on the running extension's command list, is checked in a real extension host (test/vscode/suite/smoke.test.ts).
  it('registers every declared command and declares every registered one', () => {
    const files = sourceFiles(join(root, 'src'));
    const source = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    // Commands are registered by id literal (register / registerCommand), and the panels' ids by PANEL_COMMANDS.
    const called = [...source.matchAll(/\bregister(?:Command)?\(\s*['"](xmodels\.[\w.]+)['"]/g)].map((m) => m[1]);
    const panelTable = /PANEL_COMMANDS[^=]*=\s*\{([^}]*)\}/.exec(readFileSync(join(root, 'src/panels/index.ts'), 'utf8'));
    assert.ok(panelTable, 'src/panels/index.ts defines PANEL_COMMANDS');
    const panels = [...panelTable[1].matchAll(/['"](xmodels\.[\w.]+)['"]/g)].map((m) => m[1]);
    assert.ok(panels.length >= 5 && called.length >= 20, 'the registration calls were found');
    const registered = new Set([...called, ...panels]);
    assert.deepEqual(declared.filter((id) => !registered.has(id)), [], 'declared but never registered');
    assert.deepEqual([...registered].filter((id) => !declared.includes(id)), [], 'registered but not declared');
  });

  it('gives the training settings the engine\u2019s defaults, ranges and fit methods', () => {
    const props = manifest.contributes.configuration.properties as Record<
      string,
      { default: unknown; minimum?: number; maximum?: number; exclusiveMaximum?: number; enum?: unknown[] }
    >;
    const settings: Record<string, keyof typeof PARAM_RANGES> = {
      maxDepth: 'max_depth',
      minInfoGain: 'min_info_gain',
      minLeafSize: 'min_leaf_size',
      weight: 'weight',
      powerDegree: 'power_degree',
      sigmoidExponent: 'sigmoid_exponent',
      tailSensitivity: 'tail_sensitivity',
    };
    for (const [setting, param] of Object.entries(settings)) {
      const prop = props[`xmodels.training.${setting}`];
      assert.equal(prop.default, DEFAULT_PARAMS[param], setting);
      const range = PARAM_RANGES[param];
      if (range.values) assert.deepEqual(prop.enum, range.values, setting);
      else assert.deepEqual([prop.minimum, range.maxOpen ? prop.exclusiveMaximum : prop.maximum], [range.min, range.max], setting);
    }
    assert.deepEqual(props['xmodels.training.method'].enum, [...FIT_METHODS]);
    assert.equal(props['xmodels.training.method'].default, DEFAULT_FIT_METHOD);
  });

  it('resolves every %key% placeholder from package.nls.json', () => {
    const placeholders = JSON.stringify(manifest).match(/"%[^%"]+%"/g) ?? [];
    assert.ok(placeholders.length > 50);
    for (const placeholder of placeholders) assert.ok(placeholder.slice(2, -2) in nls, `${placeholder} has no text`);
  });

  it('only puts declared commands in menus and matches tree items by contextValue tokens', () => {
    for (const [menu, entries] of Object.entries(manifest.contributes.menus as Record<string, { command: string; when?: string }[]>)) {
      for (const entry of entries) assert.ok(declared.includes(entry.command), `${menu}: ${entry.command} is not declared`);
    }
    const itemMenus = manifest.contributes.menus['view/item/context'] as { when: string }[];
    for (const entry of itemMenus) assert.match(entry.when, /^view == xmodels\.(models|data) && viewItem =~ \/\^/);
  });

  it('namespaces every setting and scopes machine-dependent ones to the machine', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string }>;
    for (const key of Object.keys(properties)) assert.match(key, /^xmodels\.[a-zA-Z]+\.[a-zA-Z]+$/);
    assert.equal(properties['xmodels.hosted.baseUrl'].scope, 'machine');
  });

  it('offers the text-generation key command in the palette and keeps the provider address out of workspace control', () => {
    assert.ok(declared.includes('xmodels.textgen.setApiKey'));
    const palette = manifest.contributes.menus.commandPalette as { command: string; when?: string }[];
    assert.equal(palette.find((entry) => entry.command === 'xmodels.textgen.setApiKey')?.when, undefined);
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual(properties['xmodels.textgen.provider'].enum, ['rules', 'openai', 'azure', 'ollama', 'custom']);
    assert.equal(properties['xmodels.textgen.provider'].default, 'rules');
    assert.equal(properties['xmodels.textgen.baseUrl'].scope, 'machine');
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of ['xmodels.textgen.provider', 'xmodels.textgen.baseUrl']) assert.ok(restricted.includes(key), key);
  });

  it('ships the walkthrough media it refers to', () => {
    for (const step of manifest.contributes.walkthroughs[0].steps) statSync(join(root, step.media.markdown));
  });
});
