import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as z from 'zod';
import { ErrorBodySchema, isIgnoredField, OPERATIONS } from '../../../src/contract';
import type { ServiceContext } from '../../../src/service/http/context';
import { createApp } from '../../../src/service/routes/app';
import { storedRowCounts, useService, type ApiResponse } from './harness';
import { smallCsv, trainSmall, uploadCsv } from './fixtures';

/**
 * Random and mutated bodies, path segments and forms thrown at every route of the OpenAPI document: no answer is a
 * 5xx, the service keeps answering, a refused request leaves nothing behind (no row of any table of the store, no
 * file), and an unknown field is a 422 naming it. Each generator of each route draws XMODELS_FUZZ_RUNS values
 * (20 by default; `npm run fuzz` draws more) from a fixed seed, so a run is reproducible.
 */

type Json = unknown;
type Operation = (typeof OPERATIONS)[number];

interface Sent {
  /** What the body is made of, for the failure message. */
  kind: string;
  body: string | FormData;
  contentType?: string;
  /** Set when the body adds this unknown field at this path: the answer must be a 422 naming it. */
  unknownField?: string;
}

/** What the service holds, compared before and after a refused request. */
interface Holdings {
  /** Connections added through the API, which live in memory. */
  connections: number;
  /** Files in the datasets folder that belong to no listed dataset. */
  orphanFiles: string[];
  /** Rows of every table of the store (versions, preprocessor versions, jobs, dataset bytes on PostgreSQL…). */
  rows: Record<string, number>;
}

/** A named way of drawing requests; a constant one is sent once. */
interface Generator {
  name: string;
  values: fc.Arbitrary<Sent>;
  constant?: boolean;
}

const SEED = 2025;
const RUNS_PER_GENERATOR = Number(process.env.XMODELS_FUZZ_RUNS ?? 20);
const PLACEHOLDER = '"\u{1F9EA}placeholder\u{1F9EA}"';

const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;

/** Every path to a value inside `value` (objects and arrays, to a few levels). */
function pathsOf(value: Json, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (value === null || typeof value !== 'object' || depth > 3) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...pathsOf(item, path, depth + 1)];
  });
}

/** A copy of `value` with the value at `path` replaced (or removed when `replacement` is undefined). */
function withValueAt(value: Json, path: (string | number)[], replacement: Json | undefined): Json {
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1];
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

/** The body text with the value at `path` written as `text` (JSON too deep or too long to build as a value). */
const withTextAt = (value: Json, path: (string | number)[], text: string) => JSON.stringify(withValueAt(value, path, PLACEHOLDER.slice(1, -1))).replace(PLACEHOLDER, () => text);

/** The field names an object schema knows (none for other schemas). */
const knownFields = (schema: z.ZodType | undefined): string[] => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

/** Field names no request knows: random text, and names that are special to JavaScript objects. */
const strangeKey = fc.oneof(
  fc.string({ minLength: 1, maxLength: 16 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'foo_bar', 'interactions', 'max_dept'),
);

/** Mutations of a valid JSON body, and JSON and text that are no body of this route. */
function jsonBodies(valid: Json, schema: z.ZodType | undefined): Generator[] {
  const paths = pathsOf(valid);
  const path = paths.length ? fc.constantFrom(...paths) : fc.constant([] as (string | number)[]);
  const objectPaths = [[], ...paths].filter((p) => {
    const value = p.reduce<Json>((v, key) => (v as Record<string | number, Json>)[key], valid);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  });
  const deep = fc.tuple(fc.integer({ min: 40, max: 20_000 }), fc.boolean()).map(([depth, objects]) => ({
    depth,
    text: objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : nested(depth, '[', ']'),
  }));
  const json = (kind: string) => (value: Json): Sent => ({ kind, body: JSON.stringify(value) });
  const unknownTargets: { at: (string | number)[]; known: string[] }[] = [{ at: [], known: knownFields(schema) }];
  const req = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>).req : undefined;
  if (req) unknownTargets.push({ at: ['req'], known: knownFields(req) });
  return [
    { name: 'valid', values: fc.constant(valid).map(json('valid')), constant: true },
    { name: 'random JSON', values: fc.jsonValue({ maxDepth: 4 }).map(json('random JSON')) },
    { name: 'a value replaced', values: fc.tuple(path, fc.jsonValue({ maxDepth: 3 })).map(([p, v]) => json(`${p.join('.')} replaced`)(withValueAt(valid, p, v))) },
    { name: 'a value removed', values: path.map((p) => json(`${p.join('.')} removed`)(withValueAt(valid, p, undefined))) },
    { name: 'a value nested deep', values: fc.tuple(path, deep).map(([p, { depth, text }]): Sent => ({ kind: `${p.join('.')} nested ${depth} deep`, body: withTextAt(valid, p, text) })) },
    // Added to an object where any field is taken (a payload's maps, say), a deep value reaches what stores it.
    { name: 'a deep field added', values: fc.tuple(fc.constantFrom(...objectPaths), deep).map(([p, { depth, text }]): Sent => ({
      kind: `${[...p, 'deep'].join('.')} nested ${depth} deep`,
      body: withTextAt(valid, [...p, 'deep'], text),
    })) },
    { name: 'a long string', values: fc.tuple(path, fc.integer({ min: 10_000, max: 3_000_000 }), fc.constantFrom('x', '\u00e9', '\\"', ',', '\n')).map(([p, length, unit]): Sent => ({
      kind: `${p.join('.')} a string of ${length}`,
      body: withTextAt(valid, p, JSON.stringify(unit.repeat(length))),
    })) },
    { name: 'an unknown field', values: fc.tuple(fc.constantFrom(...unknownTargets), strangeKey, fc.jsonValue({ maxDepth: 2 })).filter(([target, key]) => !target.known.includes(key) && !isIgnoredField(key)).map(([target, key, v]): Sent => {
      const object = (target.at.length ? (valid as Record<string, Json>)[target.at[0]] : valid) as Record<string, Json>;
      // Defined, not assigned, so that "__proto__" is a field like any other.
      const extended = Object.defineProperty({ ...object }, key, { value: v, enumerable: true });
      return {
        kind: `unknown field ${JSON.stringify(key)}`,
        body: JSON.stringify(target.at.length ? { ...(valid as object), [target.at[0]]: extended } : extended),
        unknownField: [...target.at, key].join('.'),
      };
    }) },
    { name: 'cut short', values: fc.nat().map((cut): Sent => {
      const text = JSON.stringify(valid);
      return { kind: 'cut short', body: text.slice(0, cut % Math.max(1, text.length)) };
    }) },
    { name: 'random text', values: fc.string({ unit: 'binary', maxLength: 200 }).map((text): Sent => ({ kind: 'random text', body: text })) },
    { name: 'another content type', values: fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'), fc.jsonValue({ maxDepth: 2 })).map(([contentType, v]): Sent => ({
      kind: `as ${contentType}`,
      body: JSON.stringify(v),
      contentType,
    })) },
  ];
}

/** Multipart forms: the valid one, others with random fields and files, and random bytes said to be a form. */
function formBodies(validFields: Record<string, string>): Generator[] {
  const fieldName = fc.oneof(fc.constantFrom('file', 'name', 'team_id', 'textgen_config', 'files'), fc.string({ maxLength: 12 }));
  const fieldValue = fc.oneof(fc.string({ maxLength: 50 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), fc.constant(nested(500, '[', ']')));
  const fileBytes = fc.oneof(
    fc.constant(smallCsv(30)),
    fc.uint8Array({ maxLength: 2000 }),
    fc.tuple(fc.nat(), fc.string({ maxLength: 20 })).map(([at, junk]) => {
      const csv = smallCsv(30);
      return csv.slice(0, at % csv.length) + junk + csv.slice(at % csv.length);
    }),
    fc.constant(`PAR1${'x'.repeat(100)}PAR1`),
  );
  const form = (kind: string, fields: [string, string][], files: [string, string | Uint8Array][]): Sent => {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    for (const [name, bytes] of files) body.append(name, new Blob([bytes as BlobPart], { type: 'text/csv' }), 'data.csv');
    return { kind, body };
  };
  return [
    { name: 'valid form', values: fc.constant(form('valid form', Object.entries(validFields), [['file', smallCsv(30)]])), constant: true },
    { name: 'random fields and files', values: fc.tuple(fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 12 }), fc.array(fc.tuple(fieldName, fileBytes), { maxLength: 2 })).map(([fields, files]) =>
      form(`form of ${fields.map(([n]) => n).join(',')} and files ${files.map(([n]) => n).join(',')}`, fields, files),
    ) },
    { name: 'random text as a form', values: fc.tuple(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 20 })).map(([text, boundary]): Sent => ({
      kind: 'random text as a form',
      body: text,
      contentType: `multipart/form-data; boundary=${boundary}`,
    })) },
  ];
}

/** Path segments: real ids, and text that is no id. */
const segment = (real: string[]) =>
  fc.oneof(fc.constantFrom(...real), fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('latest', '..', '%', ' ', '\u0000', 'a'.repeat(3000), '00000000-0000-0000-0000-000000000000'));

describe('service: the routes the application registers', () => {
  it('are the operations of the OpenAPI document, no more and no fewer', () => {
    // Registering routes reads nothing of the context but these.
    const app = createApp({ version: '0.0.0', uploadLimitBytes: 1 } as ServiceContext);
    const registered = app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`);
    const documented = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`);
    assert.deepEqual([...registered].sort(), [...documented].sort());
    assert.equal(new Set(registered).size, registered.length, 'no route is registered twice');
  });
});

describe('service: no body, path or form makes any route answer 5xx (property-based)', function () {
  // A route sends about a dozen generators' values; a value takes well under a second.
  this.timeout(60_000 + RUNS_PER_GENERATOR * 12_000);
  // No job ever runs: a valid autotrain request is a 429, so that every model comes from a request's own answer.
  // On the PostgreSQL backend the service is a team server: connections through the API must be allowed there.
  const env = useService(['--max-pending-jobs', '0', '--allow-connection-api']);
  const valid: Record<string, Json> = {};
  const forms: Record<string, Record<string, string>> = {};
  const pathValues: Record<string, string[]> = {};
  let held: Holdings;

  const holdings = async (): Promise<Holdings> => {
    const [datasetList, connections, rows] = await Promise.all([env.call('GET', '/v1/datasets'), env.call('GET', '/v1/connections'), storedRowCounts(env.service)]);
    const datasets = datasetList.body as { dataset_id: string }[];
    const dir = join(env.service.dataDir, 'datasets');
    const files = existsSync(dir) ? readdirSync(dir) : [];
    return {
      connections: connections.body.length,
      // The folder's marker (a dot file) is the service's own.
      orphanFiles: files.filter((file) => !file.startsWith('.') && !datasets.some((d) => file.startsWith(d.dataset_id))),
      rows,
    };
  };

  before(async function () {
    this.timeout(60_000);
    const model = await trainSmall(env.call);
    const datasetId = await uploadCsv(env.call, smallCsv(60));
    const payload = (await env.call('GET', `/v1/models/versions/${model.version_id}/payload`)).body;
    const preprocessor = (await env.call('POST', '/v1/preprocessors', { json: { name: 'p', dataset_id: datasetId, steps: [{ type: 'log1p', column: 'size' }] } })).body;
    const { version_id: _id, ...wirePayload } = payload;
    const imported = {
      payload: wirePayload,
      source: 'train',
      parameters: { seed: 42 },
      test_metrics: null,
      feature_info: [],
      partitions: [{ partition: '__dataset__', n_train: 96, n_test: 24, evaluation: null }],
      copied_from: { model_id: model.model_id, model_name: 'small', version_id: model.version_id, version_number: 1, created: '2025-01-01T00:00:00.000Z', created_by: 'someone' },
    };
    const summary = (await env.call('POST', '/v1/autotrain/summarize', { json: { team_id: null, req: { dataset_id: datasetId } } })).body;
    const goal = (await env.call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, n: 1 } } })).body.goals[0];
    assert.equal((await env.call('POST', '/v1/connections', { json: { name: 'scratch', url: 'duckdb::memory:' } })).status, 200);
    Object.assign(valid, {
      create_model: { name: 'uploaded', type: 'binary_classification', target_name: 'label', algorithm: 'XClassifier', partitions: payload.partitions },
      add_version: { model_id: model.model_id, partitions: payload.partitions },
      import_model: { model_name: 'imported', ...imported },
      import_version: imported,
      link_preprocessor: { model_version_id: model.version_id, preprocessor_version_id: preprocessor.version_id },
      train_model: { target_column: 'label', model_name: 'fuzzed', csv_content: smallCsv(40), max_depth: 3 },
      start_training: { dataset_id: datasetId, target_column: 'label', model_name: 'job', max_depth: 3 },
      refit_model: { dataset_id: datasetId, target_column: 'label', smoothing: 2 },
      preview_edits: { dataset_id: datasetId, target_column: 'label', edits: [{ feature: 'x', op: 'shift', bins: [0, 1], value: 0.1 }, { feature: 'color', op: 'merge' }] },
      predict: { csv_content: smallCsv(8), explain: true, threshold: 0.4 },
      summarize_by_dataset_id: { team_id: null, req: { dataset_id: datasetId } },
      generate_goals: { team_id: null, req: { summary, n: 2 } },
      generate_labels: { team_id: null, req: { summary } },
      generate_feature_engineering: { team_id: null, req: { summary, n: 2 } },
      start_autotrain: { team_id: null, req: { model_name: 'auto', summary, label: 'label', model_type: 'classifier' } },
      train_manual: { team_id: null, req: { label: 'label', model_name: 'manual', preprocessor_id: preprocessor.preprocessor_id, version_id: preprocessor.version_id } },
      visualize_data: { team_id: null, req: { summary, goal, library: 'seaborn' } },
      generate_insights: { team_id: null, req: { goal, summary } },
      upload_dataset: { name: 'query', source: { connection: 'scratch', query: 'SELECT 1 AS x, 2 AS y' } },
      add_connection: { name: 'another', url: 'duckdb::memory:' },
      create_preprocessor: { name: 'steps', dataset_id: datasetId, steps: [{ type: 'fill_missing', column: 'x', strategy: 'constant', value: 0 }] },
      add_preprocessor_version: { steps: [{ type: 'clip', column: 'x', min: 0, max: 50 }], dataset_id: datasetId },
    });
    Object.assign(forms, { summarize_dataset: { name: 'summarized', textgen_config: '{}' }, upload_dataset: { name: 'uploaded.csv' } });
    Object.assign(pathValues, {
      model_id: [model.model_id],
      version_id: [model.version_id, 'latest'],
      partition_id: [model.partitions[0].partition_id],
      team_id: [env.service.teamId],
      training_id: ['00000000-0000-0000-0000-000000000000'],
      name: ['scratch'],
      schema: ['main'],
      table: ['t'],
      preprocessor_id: [preprocessor.preprocessor_id],
      dataset_id: [datasetId],
    });
  });

  beforeEach(async () => {
    held = await holdings();
  });

  /** Sends one request and checks what every answer must hold. */
  async function check(op: Operation, path: string, sent: Sent): Promise<void> {
    const what = `${op.method.toUpperCase()} ${path.slice(0, 120)} with ${sent.kind}`;
    const res: ApiResponse = await env.call(op.method.toUpperCase(), path, {
      body: sent.body,
      contentType: sent.contentType ?? (typeof sent.body === 'string' ? 'application/json' : undefined),
    });
    assert.ok(res.status < 500, `${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    assert.equal((await env.call('GET', '/v1/health')).status, 200, `the service answers after ${what}`);
    if (res.status >= 400) ErrorBodySchema.parse(res.body);
    if (sent.unknownField !== undefined) {
      assert.equal(res.status, 422, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(res.body.error.fields[0].path, sent.unknownField, what);
    }
    const now = await holdings();
    if (res.status >= 400) assert.deepEqual(now, held, `${what} was refused (${res.status}) but changed what the service holds`);
    assert.deepEqual(now.orphanFiles, [], `${what} left files of no dataset`);
    held = now;
  }

  /** The operation's path with each parameter from `segments`, in order. */
  const fillPath = (op: Operation, segments: string[]) => {
    let i = 0;
    return op.path.replace(/\{\w+\}/g, () => encodeURIComponent(segments[i++]));
  };
  const paramNames = (op: Operation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const realPath = (op: Operation) => fillPath(op, paramNames(op).map((name) => pathValues[name][0]));

  for (const op of OPERATIONS) {
    const takesBody = op.request !== undefined;
    it(`${op.operationId}: ${takesBody ? 'random and mutated bodies' : 'random path segments and queries'}`, async function () {
      const generators: Generator[] = [];
      if (op.upload) generators.push(...formBodies(forms[op.operationId]));
      if (takesBody && (!op.upload || op.json)) {
        assert.ok(valid[op.operationId], `a valid body of ${op.operationId} is given above`);
        generators.push(...jsonBodies(valid[op.operationId], op.upload ? op.json : op.request));
      }
      for (const { name, values, constant } of generators) {
        await fc.assert(fc.asyncProperty(values, (sent) => check(op, realPath(op), { ...sent, kind: `${name}: ${sent.kind}` })), {
          seed: SEED,
          numRuns: constant ? 1 : RUNS_PER_GENERATOR,
          endOnFailure: true,
        });
      }
      if (generators.length) return;
      const query = fc.dictionary(fc.constantFrom('model_id', 'training_id', 'team_id', 'x'), fc.string({ maxLength: 40 }), { maxKeys: 3 });
      const segments = fc.tuple(...paramNames(op).map((name) => segment(pathValues[name])));
      // Deletes get random segments only, so the fixtures stay.
      const safe = op.method === 'delete' ? segments.filter((s) => s.every((v, i) => !pathValues[paramNames(op)[i]].includes(v))) : segments;
      await fc.assert(
        fc.asyncProperty(safe, query, fc.jsonValue({ maxDepth: 2 }), async (values, params, body) => {
          const path = `${fillPath(op, values)}${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ''}`;
          // GET carries no body (fetch refuses one); a DELETE gets one it must not read.
          await check(op, path, op.method === 'get' ? { kind: 'no body', body: undefined as never, contentType: 'text/plain' } : { kind: 'random JSON', body: JSON.stringify(body) });
        }),
        { seed: SEED, numRuns: RUNS_PER_GENERATOR, endOnFailure: true },
      );
    });
  }
});
