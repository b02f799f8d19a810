/**
 * Hand edits of one feature's steps in the part of the version shown (its partition, its class): bins selected on
 * the chart with the pointer (click, shift-click, drag) or the keyboard, an edit from the toolbar or a key, the
 * fitted steps faded behind the edited ones, and the metrics before → after from the preview.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { Edit } from '../../src/contract/edits.js';
import type { PartitionProfile } from '../../src/contract/models.js';
import type { EditOp } from '../../src/engine/model/edits.js';
import type { FitMethod } from '../../src/engine/params/table.js';
import { clampSelection, isSelected, moveSelection, pickBin, selectedRange, type BinRef, type BinSelection } from '../../src/views/binSelection.js';
import type { EditScope } from '../../src/views/classProfiles.js';
import { allowedOps, EDIT_KEYS, keyAction, nudgeSize, selectionEdit, type EditorAction } from '../../src/views/editActions.js';
import { plusMinus } from '../../src/views/band.js';
import { binsText, describeEdit } from '../../src/views/editText.js';
import { formatNumber, formatPercent } from '../../src/views/format.js';
import { featureSeries, type FeatureSeries, type SharedScales } from '../../src/views/profileSeries.js';
import { editApplies, editedSeries } from '../../src/views/stepEdits.js';
import type { EditsPreview } from '../../src/views/protocol.js';
import { BinChart } from '../charts/binChart.js';
import { scoresOf } from '../charts/binMarks.js';
import { controlValue, h } from '../shared/dom.js';
import { notice } from '../shared/widgets.js';
import { bandOutcome, previewOutcome, saveOutcome } from './editOutcome.js';
import type { EditSession, SessionChange } from './editSession.js';

export interface StepEditorOptions {
  session: EditSession;
  /** The part of the version shown, as fitted. */
  partition: PartitionProfile;
  feature: string;
  scope: EditScope;
  method: FitMethod;
  modelId: string;
  /** Scales shared with a chart beside the editor's. */
  scales?: SharedScales;
  /** What screen readers read for the chart of a series. */
  describe(series: FeatureSeries): string;
  /** The labels of the bins an edit names (for the list of edits). */
  binLabels(edit: Edit): readonly string[];
}

interface ToolButton {
  element: HTMLElement;
  /** Whether the button can be used now. */
  enabled(): boolean;
}

let editors = 0;

function binCount(series: FeatureSeries): number {
  return series.kind === 'numeric' ? series.bins.length : series.categories.length;
}

function binLabelsOf(series: FeatureSeries): string[] {
  return series.kind === 'numeric' ? series.bins.map((b) => b.label) : series.categories.map((c) => c.category);
}

/** A bin's contribution and frequency, as the readout under the chart gives them. */
function binFacts(series: FeatureSeries, bin: BinRef): { label: string; score: number; std: number; freq: number } | undefined {
  if (bin === 'missing') return series.missing ? { label: 'Missing', ...series.missing } : undefined;
  const found = series.kind === 'numeric' ? series.bins[bin] : series.categories[bin];
  return found ? { label: series.kind === 'numeric' ? series.bins[bin].label : series.categories[bin].category, score: found.score, std: found.std, freq: found.freq } : undefined;
}

export class StepEditor {
  readonly element: HTMLElement;
  private readonly fitted: FeatureSeries;
  private readonly chart: BinChart;
  private readonly surface: HTMLElement;
  private readonly value: HTMLElement;
  private readonly buttons: ToolButton[] = [];
  private readonly selectionStatus = h('p', { class: 'selection-status', 'aria-live': 'polite' });
  private readonly readout = h('p', { class: 'chart-readout muted', 'aria-hidden': 'true' });
  private readonly announcer = h('p', { class: 'visually-hidden', role: 'status' });
  private readonly outcome = h('div', { class: 'edit-outcome', 'aria-live': 'polite' });
  private readonly list = h('ol', { class: 'edit-list' });
  private readonly listSummary = h('summary');
  private readonly removedNote = h('div');
  private selection: BinSelection | undefined;
  private dragging = false;
  /** The edit a typed value is for (S or E pressed), applied when Enter is pressed in the value field. */
  private valueFor: 'shift' | 'set' = 'shift';
  private drawn: FeatureSeries;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: StepEditorOptions) {
    const { feature, partition, session } = options;
    const fitted = featureSeries(partition, feature);
    if (!fitted) throw new Error(`${feature} is not a feature of this partition`);
    this.fitted = fitted;
    this.drawn = fitted;
    const id = `step-editor-${++editors}`;
    this.chart = new BinChart(options.describe(fitted), { series: fitted, title: feature, ...(options.scales ? { scales: options.scales } : {}) });
    this.surface = h(
      'div',
      {
        class: 'edit-surface',
        tabindex: 0,
        role: 'application',
        'aria-roledescription': 'step editor',
        'aria-label': `Steps of ${feature}`,
        'aria-describedby': `${id}-help`,
      },
      this.chart.element,
    );
    this.value = h('vscode-textfield', { type: 'number', placeholder: 'Value', 'aria-label': 'Value to shift the selected steps by, or to set them to', class: 'edit-value' });
    this.element = h(
      'div',
      { class: 'step-editor' },
      this.toolbar(feature),
      this.surface,
      this.readout,
      this.selectionStatus,
      h('p', {
        id: `${id}-help`,
        class: 'muted edit-help',
        text: 'Click or drag on the chart to select bins (Shift extends); ←/→ move, Shift+←/→ extend, ↑/↓ nudge; S shift, E set, I interpolate, M merge, U/D never decreasing/increasing, R reset, Delete removes the feature; Ctrl+Z undo, Ctrl+Shift+Z redo.',
      }),
      this.removedNote,
      this.outcome,
      h('details', { class: 'edits', open: true }, this.listSummary, this.list),
      this.announcer,
    );
    this.listen();
    this.unsubscribe = session.subscribe((change) => this.refresh(change));
    this.refresh('edits');
  }

  /** Stops following the session (the view shows another feature). */
  dispose(): void {
    this.unsubscribe();
    this.chart.dispose();
  }

  private toolbar(feature: string): HTMLElement {
    const { session } = this.options;
    const button = (label: string, icon: string, key: string | undefined, run: () => void, enabled: () => boolean, primary = false): HTMLElement => {
      const title = key ? `${label} (${key})` : label;
      const element = h('vscode-button', { icon, title, 'aria-label': title, ...(primary ? {} : { secondary: true }), onclick: run }, label);
      this.buttons.push({ element, enabled });
      return element;
    };
    const allows = (op: EditOp) => () => this.allowed().has(op);
    const typed = (op: 'shift' | 'set') => () => {
      this.valueFor = op;
      this.applyTyped();
    };
    this.value.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.applyTyped();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.surface.focus();
      }
    });
    const group = (label: string, ...children: HTMLElement[]) => h('div', { class: 'toolbar-group', role: 'group', 'aria-label': label }, ...children);
    return h(
      'div',
      { class: 'edit-toolbar', role: 'toolbar', 'aria-label': `Edit the steps of ${feature}` },
      group(
        'Value edits',
        button('Shift', 'arrow-both', EDIT_KEYS.shift, typed('shift'), allows('shift')),
        button('Set', 'edit', EDIT_KEYS.set, typed('set'), allows('set')),
        this.value,
      ),
      group(
        'Shape edits',
        button('Interpolate', 'pulse', EDIT_KEYS.interpolate, () => this.perform({ kind: 'edit', op: 'interpolate' }), allows('interpolate')),
        button('Merge', 'git-merge', EDIT_KEYS.merge, () => this.perform({ kind: 'edit', op: 'merge' }), allows('merge')),
        button('Never decreasing', 'arrow-up', EDIT_KEYS.monotoneUp, () => this.perform({ kind: 'edit', op: 'monotone', direction: 1 }), allows('monotone')),
        button('Never increasing', 'arrow-down', EDIT_KEYS.monotoneDown, () => this.perform({ kind: 'edit', op: 'monotone', direction: -1 }), allows('monotone')),
        button('Reset', 'discard', EDIT_KEYS.reset, () => this.perform({ kind: 'edit', op: 'reset' }), allows('reset')),
        button('Remove feature', 'trash', EDIT_KEYS.remove, () => this.perform({ kind: 'edit', op: 'remove' }), allows('remove')),
      ),
      group(
        'History',
        button('Undo', 'discard', 'Ctrl+Z', () => this.perform({ kind: 'undo' }), () => session.canUndo),
        button('Redo', 'redo', 'Ctrl+Shift+Z', () => this.perform({ kind: 'redo' }), () => session.canRedo),
        button('Save as new version', 'save', undefined, () => void session.saveAs(this.options.modelId), () => session.edits.length > 0 && !session.saving, true),
      ),
    );
  }

  private listen(): void {
    const surface = this.surface;
    surface.addEventListener('keydown', (event) => {
      const action = keyAction(event);
      if (!action) return;
      event.preventDefault();
      event.stopPropagation();
      this.perform(action);
    });
    surface.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      const bin = this.chart.binAt(event.clientX);
      if (bin === undefined) return;
      surface.focus();
      surface.setPointerCapture(event.pointerId);
      this.dragging = true;
      this.select(pickBin(this.selection, bin, event.shiftKey));
    });
    surface.addEventListener('pointermove', (event) => {
      const bin = this.chart.binAt(event.clientX);
      if (bin === undefined) return;
      if (this.dragging && this.selection?.focus !== bin) this.select(pickBin(this.selection, bin, true));
      this.showReadout(bin);
    });
    const stop = () => (this.dragging = false);
    surface.addEventListener('pointerup', stop);
    surface.addEventListener('pointercancel', stop);
    surface.addEventListener('pointerleave', () => (this.readout.textContent = ''));
  }

  private perform(action: EditorAction): void {
    const { session } = this.options;
    switch (action.kind) {
      case 'select': {
        const hasMissing = Boolean(this.drawn.missing);
        this.select(moveSelection(this.selection, action.move, action.extend, binCount(this.drawn), hasMissing));
        return;
      }
      case 'selectAll':
        this.select(binCount(this.drawn) ? { anchor: 0, focus: binCount(this.drawn) - 1 } : undefined);
        return;
      case 'clearSelection':
        this.select(undefined);
        return;
      case 'nudge':
        this.edit('shift', { value: action.direction * nudgeSize(scoresOf(this.drawn)) }, true);
        return;
      case 'askValue':
        this.valueFor = action.op;
        this.value.focus();
        this.announce(`Type the value to ${action.op === 'shift' ? 'shift the selected steps by' : 'set the selected steps to'}, then press Enter.`);
        return;
      case 'edit':
        this.edit(action.op, action.direction !== undefined ? { direction: action.direction } : {});
        return;
      case 'undo':
        session.undo();
        return;
      case 'redo':
        session.redo();
        return;
    }
  }

  private applyTyped(): void {
    const text = controlValue(this.value).trim();
    const value = text === '' ? NaN : Number(text);
    if (!Number.isFinite(value)) {
      this.value.setAttribute('invalid', '');
      this.value.focus();
      this.announce(`Type a number to ${this.valueFor} the selected steps ${this.valueFor === 'shift' ? 'by' : 'to'}.`);
      return;
    }
    this.value.removeAttribute('invalid');
    if (this.edit(this.valueFor, { value })) this.surface.focus();
  }

  /** Makes the edit of `op` on the selection when it allows it; says why not otherwise. */
  private edit(op: EditOp, extra: { value?: number; direction?: 1 | -1 }, coalesce = false): boolean {
    const { session, feature, scope } = this.options;
    if (!this.allowed().has(op)) {
      if (session.saving || this.removed()) return false;
      this.announce(this.whyNot(op));
      return false;
    }
    const edit = selectionEdit(op, this.selection, feature, scope, extra);
    session.apply(edit, coalesce);
    this.announce(describeEdit(edit, binLabelsOf(this.fitted)));
    return true;
  }

  private whyNot(op: EditOp): string {
    if (op === 'remove') return 'Only a feature of a boosted version can be removed.';
    if (!this.selection) return 'Select bins first: click or drag on the chart, or use the arrow keys.';
    if (selectedRange(this.selection) === 'missing') return 'The missing-value bin can be shifted, set or reset; select other bins to interpolate, merge or make monotone.';
    return op === 'interpolate' ? 'Select three bins or more to interpolate.' : 'Select two bins or more.';
  }

  private select(selection: BinSelection | undefined): void {
    this.selection = selection;
    this.drawChart();
    this.updateToolbar();
    this.selectionStatus.textContent = selection
      ? `Selected ${binsText(selectedRange(selection), binLabelsOf(this.drawn))}.`
      : 'No bins selected.';
    if (selection) this.showReadout(selection.focus);
  }

  private showReadout(bin: BinRef): void {
    const facts = binFacts(this.drawn, bin);
    if (!facts) return;
    const before = binFacts(this.fitted, bin);
    const band = before && before.std > 0 ? ` ${plusMinus(before.std)}` : '';
    const fitted = before && before.score !== facts.score ? ` (fitted ${formatNumber(before.score)}${band})` : band;
    this.readout.textContent = `${facts.label}: contribution ${formatNumber(facts.score)}${fitted}, frequency ${formatPercent(facts.freq)}${isSelected(this.selection, bin) ? ' · selected' : ''}`;
  }

  private removed(): boolean {
    const { session, feature, scope } = this.options;
    return session.edits.some((e) => e.op === 'remove' && editApplies(e, feature, scope));
  }

  /** The steps drawn in front: the preview's when it has arrived for these edits, else the same computation here. */
  private editedSteps(): FeatureSeries | null {
    const { session, partition, feature, scope, method } = this.options;
    const previewed = session.previewed(feature, scope);
    if (previewed !== undefined) return previewed;
    return editedSeries(partition, feature, session.edits, scope, method) ?? null;
  }

  private refresh(change: SessionChange): void {
    const { session, feature, scope } = this.options;
    if (change !== 'saving') {
      const edited = session.edits.some((e) => editApplies(e, feature, scope));
      const steps = edited ? this.editedSteps() : this.fitted;
      this.drawn = steps ?? this.fitted;
      this.selection = clampSelection(this.selection, binCount(this.drawn), Boolean(this.drawn.missing));
      this.surface.classList.toggle('removed', steps === null);
      this.removedNote.replaceChildren(steps === null ? notice('info', `${feature} is removed by the edits; undo to bring it back.`) : '');
      this.drawChart(edited);
      if (this.selection) this.showReadout(this.selection.focus);
    }
    if (change === 'edits') this.renderList();
    this.updateToolbar();
    this.outcome.replaceChildren(
      bandOutcome(this.fitted, this.drawn),
      previewOutcome(session.preview, (preview) => this.baseValue(preview)),
      saveOutcome(session.save) ?? '',
    );
  }

  private drawChart(edited = this.drawn !== this.fitted): void {
    const { feature, scales, describe } = this.options;
    this.chart.show(
      {
        series: this.drawn,
        ...(edited ? { fitted: this.fitted } : {}),
        ...(scales ? { scales } : {}),
        ...(this.selection ? { selection: selectedRange(this.selection) } : {}),
        title: feature,
      },
      edited ? `Edited. ${describe(this.drawn)} Fitted: ${describe(this.fitted)}` : describe(this.drawn),
    );
  }

  private baseValue(preview: EditsPreview): { before: number; after: number } | undefined {
    if (preview.kind !== 'metrics') return undefined;
    const { scope, partition } = this.options;
    const part = preview.parts.find((p) => p.partition === scope.partition && p.class === scope.class);
    return part ? { before: partition.base_value, after: part.base_value } : undefined;
  }

  /** The edits the selection allows now: none while saving or once the feature is removed. */
  private allowed(): Set<EditOp> {
    return this.removed() || this.options.session.saving ? new Set() : allowedOps(this.selection, this.options.method);
  }

  private updateToolbar(): void {
    for (const button of this.buttons) button.element.toggleAttribute('disabled', !button.enabled());
  }

  private renderList(): void {
    const { session, binLabels } = this.options;
    const edits = session.edits;
    this.listSummary.textContent = edits.length ? `Edits (${edits.length}), applied in this order` : 'No edits yet';
    this.list.replaceChildren(...edits.map((edit) => h('li', { text: describeEdit(edit, binLabels(edit)) })));
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }
}
