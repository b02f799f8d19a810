import * as z from 'zod';
import { TEXTGEN_PRESETS } from '../contract/autotrain';
import { rangeSchema } from '../contract/common';
import { FIT_METHODS } from '../engine/params/boosted';
import { PARAM_RANGES } from '../engine/params/xplainable';
import { SPLIT_RANGES } from '../engine/evaluate/split';
import { TRAINING_DEFAULTS as D } from './trainingParams';

const optionalHttpUrl = z
  .string()
  .trim()
  .refine((value) => value === '' || /^https?:\/\/[^\s/]+/i.test(value), {
    message: 'must be an http:// or https:// address',
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** Training defaults; ranges and defaults are the engine's (the reference method's parameters as in §11). */
export const TrainingDefaultsSchema = z.object({
  method: z.enum(FIT_METHODS).default(D.method),
  testSize: rangeSchema(SPLIT_RANGES.test_size).default(D.testSize),
  maxDepth: rangeSchema(PARAM_RANGES.max_depth).default(D.maxDepth),
  minInfoGain: rangeSchema(PARAM_RANGES.min_info_gain).default(D.minInfoGain),
  minLeafSize: rangeSchema(PARAM_RANGES.min_leaf_size).default(D.minLeafSize),
  weight: rangeSchema(PARAM_RANGES.weight).default(D.weight),
  powerDegree: rangeSchema(PARAM_RANGES.power_degree).default(D.powerDegree),
  sigmoidExponent: rangeSchema(PARAM_RANGES.sigmoid_exponent).default(D.sigmoidExponent),
  tailSensitivity: rangeSchema(PARAM_RANGES.tail_sensitivity).default(D.tailSensitivity),
  seed: rangeSchema(SPLIT_RANGES.seed).default(D.seed),
});

/** The service's presets, plus `custom`: any other OpenAI-compatible endpoint. */
const TEXTGEN_PROVIDERS = [...TEXTGEN_PRESETS, 'custom'] as const;

/** The text-generation provider autotrain asks for; `rules` means the service's deterministic rules. */
export const TextGenSettingsSchema = z.object({
  provider: z.enum(TEXTGEN_PROVIDERS).default('rules'),
  baseUrl: optionalHttpUrl.default(''),
  model: z.string().trim().default(''),
  temperature: z.number().min(0).max(2).default(0.2),
  /** 0 leaves the answer length to the provider. */
  maxTokens: z.number().int().min(0).max(1_000_000).default(0),
  azureApiVersion: z.string().trim().default(''),
});

/** Every `xmodels.*` setting, grouped by its section (the part after `xmodels.`). */
export const SettingsSchema = z.object({
  connection: z.object({ mode: z.enum(['local', 'hosted']).default('local') }).prefault({}),
  hosted: z
    .object({
      baseUrl: optionalHttpUrl.default(''),
      pathPrefix: z
        .string()
        .trim()
        .transform((value) => (value === '' ? '' : `/${value.replace(/^\/+|\/+$/g, '')}`))
        .default(''),
    })
    .prefault({}),
  network: z
    .object({
      proxy: optionalHttpUrl.default(''),
      requestTimeoutSeconds: z.number().min(1).max(3600).default(120),
    })
    .prefault({}),
  localService: z
    .object({
      dataDirectory: z.string().trim().default(''),
      startTimeoutSeconds: z.number().min(5).max(300).default(30),
    })
    .prefault({}),
  models: z.object({ pageSize: z.number().int().min(10).max(5000).default(200) }).prefault({}),
  training: TrainingDefaultsSchema.prefault({}),
  predict: z
    .object({
      includeContributions: z.boolean().default(false),
      threshold: z.number().min(0).max(1).default(0.5),
    })
    .prefault({}),
  trace: z.object({ requests: z.enum(['off', 'messages', 'verbose']).default('off') }).prefault({}),
  textgen: TextGenSettingsSchema.prefault({}),
});

export type Settings = z.output<typeof SettingsSchema>;
export type TrainingDefaults = z.output<typeof TrainingDefaultsSchema>;
export type TextGenSettings = z.output<typeof TextGenSettingsSchema>;
export const settingSections = Object.keys(SettingsSchema.shape) as (keyof Settings)[];

export interface ParsedSettings {
  settings: Settings;
  /** One sentence per invalid setting, naming the setting and its value; each falls back to its default. */
  problems: string[];
}

/** Validates raw settings; an invalid value is reported and replaced by its default rather than failing. */
export function parseSettings(raw: Record<string, unknown>): ParsedSettings {
  const input = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  const problems: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    const result = SettingsSchema.safeParse(input);
    if (result.success) return { settings: result.data, problems };
    for (const issue of result.error.issues) {
      const path = issue.path.map(String);
      const value = removePath(input, path);
      problems.push(`xmodels.${path.join('.')} ${issue.message} (got ${JSON.stringify(value)}); using the default.`);
    }
  }
  throw new Error('Settings could not be validated.');
}

function removePath(root: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node !== 'object' || node === null) return undefined;
  const last = path[path.length - 1];
  const value = (node as Record<string, unknown>)[last];
  delete (node as Record<string, unknown>)[last];
  return value;
}

/** VS Code's `http.*` settings that decide how the hosted connection reaches the network. */
export interface VSCodeHttpSettings {
  proxy: string;
  noProxy: readonly string[];
  proxyStrictSSL: boolean;
  proxyAuthorization: string | null;
  systemCertificates: boolean;
}
