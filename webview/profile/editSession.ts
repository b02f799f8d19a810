/**
 * The profile panel's hand edits of one version: their history (kept in the panel's saved state, so a panel hidden
 * and shown again, or restored after a reload, has them back), the preview of the metrics after them (asked 200 ms
 * after the last change; a newer preview supersedes an older one, which the host aborts) and saving them.
 */
import type { Edit } from '../../src/contract/edits.js';
import type { FeatureSeries } from '../../src/views/profileSeries.js';
import type { EditsPreview, SavedEdits } from '../../src/views/protocol.js';
import { NO_EDITS, pushEdit, redoEdit, restoredHistory, undoEdit, type EditHistory } from '../../src/views/editHistory.js';
import { previewSeries } from '../../src/views/stepEdits.js';
import type { EditScope } from '../../src/views/classProfiles.js';
import type { FeatureSort } from '../../src/views/profileSeries.js';
import type { PanelClient } from '../shared/panelClient.js';
import { SupersededError } from '../shared/panelClient.js';
import { errorMessage } from '../shared/status.js';

export interface ProfileUi {
  partition: string;
  feature: string;
  query: string;
  sort: FeatureSort;
  edits: EditHistory;
}

export type ProfileClient = PanelClient<'profile', ProfileUi>;

/** Where the preview of the current edits stands. */
export type PreviewState =
  | { kind: 'none' }
  | { kind: 'waiting'; previous?: EditsPreview }
  | { kind: 'ready'; preview: EditsPreview }
  | { kind: 'failed'; message: string };

/** What changed: the edits (draw at once), or the preview or the saving (its outcome arrived). */
export type SessionChange = 'edits' | 'preview' | 'saving';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; outcome: SavedEdits & { saved: true } } | { kind: 'failed'; message: string };

const PREVIEW_DELAY_MS = 200;

export class EditSession {
  private history: EditHistory;
  private previewState: PreviewState = { kind: 'none' };
  private saveState: SaveState = { kind: 'idle' };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(change: SessionChange) => void>();

  constructor(
    private readonly client: ProfileClient,
    private readonly versionId: string,
  ) {
    this.history = restoredHistory(client.ui.edits);
    if (this.history.done.length) this.requestPreview();
  }

  get edits(): readonly Edit[] {
    return this.history.done;
  }

  get canUndo(): boolean {
    return this.history.done.length > 0 && !this.saving;
  }

  get canRedo(): boolean {
    return this.history.undone.length > 0 && !this.saving;
  }

  get saving(): boolean {
    return this.saveState.kind === 'saving';
  }

  get preview(): PreviewState {
    return this.previewState;
  }

  get save(): SaveState {
    return this.saveState;
  }

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  apply(edit: Edit, coalesce = false): void {
    if (!this.saving) this.change(pushEdit(this.history, edit, coalesce));
  }

  undo(): void {
    if (this.canUndo) this.change(undoEdit(this.history));
  }

  redo(): void {
    if (this.canRedo) this.change(redoEdit(this.history));
  }

  /** The steps of `feature` the preview of the current edits gives for `scope`: undefined before it arrives. */
  previewed(feature: string, scope: EditScope): FeatureSeries | null | undefined {
    const state = this.previewState;
    return state.kind === 'ready' && state.preview.kind === 'metrics' ? previewSeries(state.preview.parts, feature, scope) : undefined;
  }

  /** Saves the edits as a new version; once saved, the panel starts again from no edits. */
  async saveAs(modelId: string): Promise<void> {
    if (this.saving || !this.history.done.length) return;
    this.saveState = { kind: 'saving' };
    this.notify('saving');
    try {
      const outcome = await this.client.request('saveEdits', { versionId: this.versionId, modelId, edits: [...this.history.done] });
      this.saveState = outcome.saved ? { kind: 'saved', outcome } : { kind: 'idle' };
      if (outcome.saved) {
        this.history = NO_EDITS;
        this.client.saveUi({ edits: NO_EDITS });
        this.cancelPreview();
        this.notify('edits');
      }
    } catch (error) {
      this.saveState = { kind: 'failed', message: errorMessage(error) };
    }
    this.notify('saving');
  }

  private change(history: EditHistory): void {
    this.history = history;
    this.client.saveUi({ edits: history });
    if (this.saveState.kind !== 'saving') this.saveState = { kind: 'idle' };
    clearTimeout(this.timer);
    if (history.done.length) {
      const previous = this.previewState.kind === 'ready' ? this.previewState.preview : this.previewState.kind === 'waiting' ? this.previewState.previous : undefined;
      this.previewState = { kind: 'waiting', ...(previous ? { previous } : {}) };
      this.timer = setTimeout(() => this.requestPreview(), PREVIEW_DELAY_MS);
    } else {
      this.cancelPreview();
    }
    this.notify('edits');
  }

  private cancelPreview(): void {
    clearTimeout(this.timer);
    this.previewState = { kind: 'none' };
  }

  private async requestPreview(): Promise<void> {
    const edits = [...this.history.done];
    if (this.previewState.kind !== 'waiting') this.previewState = { kind: 'waiting' };
    try {
      const preview = await this.client.request('previewEdits', { versionId: this.versionId, edits });
      if (this.history.done.length !== edits.length || this.history.done.some((e, i) => e !== edits[i])) return;
      this.previewState = { kind: 'ready', preview };
    } catch (error) {
      if (error instanceof SupersededError) return;
      this.previewState = { kind: 'failed', message: errorMessage(error) };
    }
    this.notify('preview');
  }

  private notify(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
