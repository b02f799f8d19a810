/**
 * The message protocol between a panel host (extension side) and its webview (browser side). Both sides import
 * this module, so it must stay free of `vscode` and Node imports; contract types are imported as types only.
 *
 * Flow: the webview posts `ready`; the host answers `init` with the panel's arguments (the object it shows);
 * the webview then sends `request`s (each with a fresh id) and the host answers each with one `response`. A panel
 * that loads its data while its webview starts posts `init` unasked as soon as that data is there, with the data
 * (`preloaded`, the answer to the page's first `load`): VS Code holds it until the page has loaded, and the page draws
 * on its first message, without a round trip to ask. The handshake is what a reloaded page, or one that missed it,
 * goes through.
 */
import type { Edit } from '../contract/edits';
import type { ModelVersion, Evaluation, FeatureInfo, FeatureParams, Metrics, ModelProfile, Partition, PreviewPart, Profile, SplitMetrics } from '../contract/models';
import type { EditScope } from './classProfiles';
import type { FitMethod } from '../engine/params';
import type {
  DatasetSummary,
  Goal,
  Label,
  Recommendation,
  VisualizationLibrary,
  VisualizationResponse,
} from '../contract/autotrain';
import type { PreprocessorStep } from '../contract/datasets';

export type PanelKind = 'profile' | 'evaluation' | 'featureInfo' | 'datasetSummary' | 'visualization' | 'compare';

/** The webview panel types; `onWebviewPanel:<viewType>` activates the extension to restore them. */
export const VIEW_TYPES: Readonly<Record<PanelKind, string>> = {
  profile: 'xmodels.profile',
  evaluation: 'xmodels.evaluation',
  featureInfo: 'xmodels.featureInfo',
  datasetSummary: 'xmodels.datasetSummary',
  visualization: 'xmodels.visualization',
  compare: 'xmodels.compare',
};

// ---- what each panel shows (its identity, kept in the webview state so the panel restores) ----

/** What a model panel's title names ("breast_cancer v2"), as far as the opener knows it. */
export interface PanelSubject {
  modelName?: string;
  versionNumber?: number;
}
export interface ProfileArgs extends PanelSubject {
  versionId: string;
  /** Needed to refit (the refit request names the model's dataset); absent when opened by id alone. */
  modelId?: string;
  /** The partition to show first (opened from a partition node). */
  partitionId?: string;
}
export interface EvaluationArgs extends PanelSubject {
  partitionId: string;
  /** The local CSV the model was trained from, when known: "Autotrain this dataset" starts on it. */
  csvPath?: string;
}
export interface FeatureInfoArgs extends PanelSubject {
  versionId: string;
}
/** The full path of the local file a summary was made from, when it was made from one. */
interface LocalData {
  dataPath?: string;
}
export interface DatasetSummaryArgs extends LocalData {
  summary: DatasetSummary;
  goals?: Goal[];
  labels?: Label[];
  recommendations?: Recommendation[];
}
export interface VisualizationArgs extends LocalData {
  summary: DatasetSummary;
  goal: Goal;
  library?: VisualizationLibrary;
}

export interface PanelArgs {
  profile: ProfileArgs;
  evaluation: EvaluationArgs;
  featureInfo: FeatureInfoArgs;
  datasetSummary: DatasetSummaryArgs;
  visualization: VisualizationArgs;
  compare: CompareArgs;
}

// ---- request methods per panel: params -> result ----

export interface Method<P, R> {
  params: P;
  result: R;
}

export interface ProfileData {
  /** A multiclass profile arrives as one entry per class (see `panelProfile`), with `classes` set. */
  profile: Profile;
  /** Multiclass: the model's classes; the picker then chooses a class. */
  classes?: string[];
  partitions: Partition[];
  /** The version's own record (parameters, dataset); absent when the model id is unknown. */
  version?: ModelVersion;
  /** Why "Refit this feature" is unavailable, or undefined when it is available. */
  refitUnavailable?: string;
  /** What hand edits of the steps need: absent, with `editUnavailable` saying why, when the version cannot be edited here. */
  editing?: ProfileEditing;
  editUnavailable?: string;
}
export interface ProfileEditing {
  /** How the version was fitted: a `boosted` feature's edited steps are re-centred, and only its features can be removed. */
  method: FitMethod;
  /** The part of the version each entry of the partition (or class) picker shows; the all-classes view has none. */
  scopes: Record<string, EditScope>;
}
export interface PreviewEditsParams {
  versionId: string;
  edits: Edit[];
}
/**
 * The version after the edits: the steps of every part they changed and the train and test metrics before and after,
 * or, when the metrics cannot be computed (the version has no dataset), why.
 */
export type EditsPreview =
  | { kind: 'metrics'; parts: PreviewPart[]; before: SplitMetrics; after: SplitMetrics }
  | { kind: 'noMetrics'; message: string };
export interface SaveEditsParams {
  versionId: string;
  modelId: string;
  edits: Edit[];
}
/** The new version holding the edits, or `saved: false` when the user dismissed a question on the way. */
export type SavedEdits = { saved: true; versionId: string; versionNumber?: number; testMetrics: Metrics } | { saved: false };
export interface RefitFeatureParams {
  versionId: string;
  modelId: string;
  feature: string;
  params: FeatureParams;
}
export interface RefitOutcome {
  versionId: string;
  versionNumber?: number;
  profile: Profile;
  parametersChanged: Record<string, Record<string, { from: unknown; to: unknown }>>;
}

export interface ProfileApi {
  load: Method<ProfileArgs, ProfileData>;
  refit: Method<RefitFeatureParams, RefitOutcome>;
  /** A newer preview supersedes an older one, which the host then aborts. */
  previewEdits: Method<PreviewEditsParams, EditsPreview>;
  saveEdits: Method<SaveEditsParams, SavedEdits>;
}
export interface EvaluationApi {
  load: Method<EvaluationArgs, Evaluation>;
  /** Starts the autotrain wizard (from the warning that the model does not generalise). */
  autotrain: Method<null, null>;
}
export interface FeatureInfoApi {
  load: Method<FeatureInfoArgs, FeatureInfo>;
}

export type SummaryAction =
  | { action: 'trainWithLabel'; label: Label }
  | { action: 'visualizeGoal'; goal: Goal }
  | { action: 'createPreprocessor'; steps: PreprocessorStep[] };

export interface DatasetSummaryApi {
  load: Method<DatasetSummaryArgs, DatasetSummaryArgs>;
  run: Method<SummaryAction, null>;
}

export interface CodeParams {
  code: string;
}
export interface VisualizationApi {
  load: Method<{ library: VisualizationLibrary }, VisualizationResponse>;
  /** `cell` is set when the code went into a new notebook cell (its 1-based number). */
  insertAtCursor: Method<CodeParams, { fileName: string; cell?: number }>;
  openAsNewFile: Method<CodeParams, null>;
  copy: Method<CodeParams, null>;
  /** "Fix this chart": the code with the instruction applied, for the panel to show as a diff before it replaces the code. */
  fixChart: Method<{ library: VisualizationLibrary; code: string; instruction: string }, VisualizationResponse>;
}

export interface PanelApis {
  profile: ProfileApi;
  evaluation: EvaluationApi;
  featureInfo: FeatureInfoApi;
  datasetSummary: DatasetSummaryApi;
  visualization: VisualizationApi;
  compare: CompareApi;
}

/** The request method names of each panel, for validating incoming messages at runtime. */
export const PANEL_METHODS: { readonly [K in PanelKind]: readonly (keyof PanelApis[K] & string)[] } = {
  profile: ['load', 'refit', 'previewEdits', 'saveEdits'],
  evaluation: ['load', 'autotrain'],
  featureInfo: ['load'],
  datasetSummary: ['load', 'run'],
  visualization: ['load', 'insertAtCursor', 'openAsNewFile', 'copy', 'fixChart'],
  compare: ['load'],
};

// ---- messages ----

/** What the webview shows for a failed request: a sentence that ends with what to do next. */
export interface PanelError {
  message: string;
}

export type RequestMessage<Api> = {
  [M in keyof Api & string]: {
    kind: 'request';
    id: number;
    method: M;
    params: Api[M] extends Method<infer P, unknown> ? P : never;
  };
}[keyof Api & string];

export type WebviewMessage<Api> = { kind: 'ready' } | RequestMessage<Api>;

export type ResponseMessage =
  | { kind: 'response'; id: number; ok: true; result: unknown }
  | { kind: 'response'; id: number; ok: false; error: PanelError };

/** The answer to a request the webview has not sent yet: its first `load`. */
export interface Preloaded {
  method: string;
  params: unknown;
  result: unknown;
}

export type HostMessage<Args> = { kind: 'init'; args: Args; preloaded?: Preloaded } | ResponseMessage;

export type ResultOf<Api, M extends keyof Api> = Api[M] extends Method<unknown, infer R> ? R : never;
export type ParamsOf<Api, M extends keyof Api> = Api[M] extends Method<infer P, unknown> ? P : never;

/** The state a webview persists with `setState`; the host's serializer reads `args` to restore the panel. */
export interface PersistedState<Args, Ui = unknown> {
  args: Args;
  ui?: Ui;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a message from a webview; returns undefined for anything that is not a known message. */
export function parseWebviewMessage<K extends PanelKind>(
  kind: K,
  raw: unknown,
): WebviewMessage<PanelApis[K]> | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.kind === 'ready') return { kind: 'ready' };
  if (raw.kind !== 'request') return undefined;
  const { id, method } = raw;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) return undefined;
  if (typeof method !== 'string' || !(PANEL_METHODS[kind] as readonly string[]).includes(method)) return undefined;
  if (!isRecord(raw.params)) return undefined;
  return raw as WebviewMessage<PanelApis[K]>;
}

/** Validates a message from the host; returns undefined for anything else. */
export function parseHostMessage<Args>(raw: unknown): HostMessage<Args> | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.kind === 'init') {
    const { preloaded } = raw;
    const wellFormed = preloaded === undefined || (isRecord(preloaded) && typeof preloaded.method === 'string' && isRecord(preloaded.params));
    return isRecord(raw.args) && wellFormed ? (raw as HostMessage<Args>) : undefined;
  }
  if (raw.kind !== 'response' || typeof raw.id !== 'number') return undefined;
  if (raw.ok === true) return raw as HostMessage<Args>;
  if (raw.ok === false && isRecord(raw.error) && typeof raw.error.message === 'string') {
    return raw as HostMessage<Args>;
  }
  return undefined;
}

/**
 * Guards against stale responses: `begin(channel, id)` makes a request the latest of its channel (e.g. "load"),
 * and only the latest id of a channel is current, so a response to a superseded request is dropped.
 */
export class LatestRequests {
  private readonly latest = new Map<string, number>();

  begin(channel: string, id: number): void {
    this.latest.set(channel, id);
  }

  isCurrent(channel: string, id: number): boolean {
    return this.latest.get(channel) === id;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: PanelError): void;
}

/** The webview's side of request ids: allocates ids, keeps pending promises, settles them on responses. */
export class RequestTracker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** Registers a request and returns its id and a promise of its result. */
  start<R>(): { id: number; result: Promise<R> } {
    const id = this.nextId++;
    const result = new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    return { id, result };
  }

  /** Settles the request a response answers; returns false for an unknown or already settled id. */
  settle(response: ResponseMessage): boolean {
    const entry = this.pending.get(response.id);
    if (!entry) return false;
    this.pending.delete(response.id);
    if (response.ok) entry.resolve(response.result);
    else entry.reject(response.error);
    return true;
  }

  get size(): number {
    return this.pending.size;
  }
}

/** The webview's side of preloaded answers: each answers the first request for its method and parameters, once. */
export class Preloads {
  private readonly results = new Map<string, unknown>();

  private static key(method: string, params: unknown): string {
    return `${method}\u0000${JSON.stringify(params)}`;
  }

  keep(preloaded: Preloaded): void {
    this.results.set(Preloads.key(preloaded.method, preloaded.params), preloaded.result);
  }

  /** The preloaded answer of this request, taken (so a second request, a Retry say, asks the host). */
  take(method: string, params: unknown): { result: unknown } | undefined {
    const key = Preloads.key(method, params);
    if (!this.results.has(key)) return undefined;
    const result = this.results.get(key);
    this.results.delete(key);
    return { result };
  }
}

// ---- the comparison of two versions of a model ----

/** Two versions of one model; which is newer is known once they load (by version number). */
export interface CompareArgs {
  modelId: string;
  versionId: string;
  otherVersionId: string;
  modelName?: string;
}
export interface ComparedVersion {
  /** The version's record: its number, test metrics and hand edits. */
  version: ModelVersion;
  profile: ModelProfile;
}
export interface CompareData {
  modelName: string;
  newer: ComparedVersion;
  older: ComparedVersion;
}
export interface CompareApi {
  load: Method<CompareArgs, CompareData>;
}
