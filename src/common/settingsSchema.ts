import * as z from 'zod';
import { TEXTGEN_PRESETS } from '../contract/autotrain';
import { rangeSchema } from '../contract/common';
import {
  METHOD_PARAM,
  PARAMS_WITH_SETTING,
  TRAINING_PARAMS,
  type ParamWithSetting,
  type SettingOf,
} from '../engine/params';
import { l10n } from '../l10n/l10n';

const optionalHttpUrl = z
  .string()
  .trim()
  .refine((value) => value === '' || /^https?:\/\/[^\s/]+/i.test(value), {
    error: () => l10n.t('must be an http:// or https:// address'),
  })
  .transform((value) => value.replace(/\/+$/, ''));

type ParamSetting = z.ZodDefault<ReturnType<typeof rangeSchema>>;

/** Training defaults: one setting per training parameter that has one, with the parameter's range and default. */
export const TrainingDefaultsSchema = z.object({
  [METHOD_PARAM.setting]: z.enum(METHOD_PARAM.values).default(METHOD_PARAM.default),
  ...(Object.fromEntries(
    PARAMS_WITH_SETTING.map((key) => {
      const { range, setting, default: fallback } = TRAINING_PARAMS[key];
      return [setting, rangeSchema(range).default(fallback)];
    }),
  ) as { [K in ParamWithSetting as SettingOf<K>]: ParamSetting }),
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
      problems.push(l10n.t('xmodels.{0} {1} (got {2}); using the default.', path.join('.'), issue.message, JSON.stringify(value)));
    }
  }
  throw new Error(l10n.t('Settings could not be validated.'));
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
