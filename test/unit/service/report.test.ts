import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XModelsClient } from '../../../src/client';
import {
  EvaluationSchema,
  ModelPayloadSchema,
  ModelProfileSchema,
  PartitionListSchema,
  TrainResultSchema,
  type Evaluation,
  type ModelProfile,
  type PartitionProfile,
  type TrainResult,
} from '../../../src/contract';
import { scoringTablesFromPayload, toPython } from '../../../src/modelExport';
import { tickLabels } from '../../../src/views/axisTicks';
import { contributionTicks, valueTicks } from '../../../src/views/binAxes';
import { panelProfile } from '../../../src/views/classProfiles';
import { formatNumber } from '../../../src/views/format';
import { featureSeries, pickPartition } from '../../../src/views/profileSeries';
import { splitImages } from '../../../src/report';
import { DATASETS, useService, type Call } from './harness';
import { penguinsCsv, smallCsv, uploadCsv } from './fixtures';

/** Every section of a report, in order. */
const SECTIONS = [
  ['predicts', 'What the model predicts'],
  ['data', 'Data'],
  ['metrics', 'Test metrics and baselines'],
  ['importances', 'Feature importances'],
  ['steps', 'Feature steps'],
  ['evaluation', 'Evaluation charts'],
  ['health', 'Data health'],
  ['parameters', 'Parameters'],
  ['edits', 'Hand edits'],
  ['scoring', 'Scoring with Python'],
] as const;

/** The elements and attributes a report may hold: text, tables, inline SVG and links within the page, nothing that loads or runs. */
const ELEMENTS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'h1', 'h2', 'h3', 'h4', 'p', 'nav', 'strong', 'ol', 'ul', 'li', 'a', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'svg', 'g', 'path', 'line', 'rect', 'text']);

/** Checks every tag of an HTML report: known elements only, no event handler, no source, links only to its own headings. */
function assertInert(html: string): void {
  const body = html.replace(/<style>[^<]*<\/style>/, '');
  for (const [, name, attributes] of body.matchAll(/<([a-zA-Z][^\s>/]*)([^>]*)>/g)) {
    assert.ok(ELEMENTS.has(name.toLowerCase()), `an element <${name}${attributes.slice(0, 80)}>`);
    for (const [, attribute, value] of attributes.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)) {
      assert.doesNotMatch(attribute, /^(on|src|srcset|xlink|formaction|style$)/i, `<${name} ${attribute}>`);
      if (attribute === 'href') assert.match(value, /^#[\w-]+$/, `a link out of the page: ${value}`);
    }
  }
  assert.doesNotMatch(body, /<!\[CDATA\[|<!--/);
}

/** The markup of a section, from its heading to the next section's. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<h2 id="${id}">`);
  assert.ok(start >= 0, `section ${id}`);
  const end = html.indexOf('<h2 id="', start + 1);
  return html.slice(start, end < 0 ? undefined : end);
}

/** The table rows of some markup: each row's cells as text, and as the exact values of its number cells. */
function tableRows(markup: string): { cells: string[]; values: (number | null)[] }[] {
  return [...markup.matchAll(/<tr>(.*?)<\/tr>/g)]
    .map(([, row]) => [...row.matchAll(/<td(?: data-value="([^"]*)")?>(.*?)<\/td>/g)])
    .filter((cells) => cells.length)
    .map((cells) => ({ cells: cells.map((c) => decoded(c[2])), values: cells.map((c) => (c[1] === undefined || c[1] === '' ? null : Number(c[1]))) }));
}

const decoded = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The tooltips of a figure's bins or cells, in order: "…: contribution +0.1234 (…)" or "…: contribution +0.1234, …". */
const contributions = (figure: string) => [...figure.matchAll(/<title>[^<]*: contribution ([^ ,]+)[ ,]/g)].map((m) => m[1]);
/** The tick labels of a step chart's contribution axis (left, right-aligned) and value axis (under the plot, centred, in grey). */
const contributionAxis = (figure: string) => [...figure.matchAll(/<text x="[^"]*" y="[^"]*" text-anchor="end" fill="#666666">([^<]*)<\/text>/g)].map((m) => decoded(m[1]));
const valueAxis = (figure: string) => [...figure.matchAll(/<text x="[^"]*" y="[^"]*" text-anchor="middle" fill="#666666">([^<]*)<\/text>/g)].map((m) => decoded(m[1]));
const signed = (value: number) => `${value > 0 ? '+' : ''}${formatNumber(value)}`;

/** A profile's importances as the report lists them: the features' and the pair terms' ("a × b"), the most important first. */
function importancesOf(profile: Pick<PartitionProfile, 'feature_importances' | 'interactions'> | undefined): [string, number][] {
  const pairs = (profile?.interactions ?? []).map((p): [string, number] => [`${p.features[0]} × ${p.features[1]}`, p.importance]);
  return [...(profile?.feature_importances ?? []).map((f): [string, number] => [f.feature, f.importance]), ...pairs].sort((a, b) => b[1] - a[1]);
}

/** The test metrics, the baselines' and the train metrics of a partition, by the report's labels, as GET evaluation gives them. */
function assertMetrics(rows: ReturnType<typeof tableRows>, evaluation: Evaluation, labels: Record<string, string>): void {
  const byLabel = new Map(rows.map((row) => [row.cells[0], row.values]));
  for (const [label, key] of Object.entries(labels)) {
    const values = byLabel.get(label);
    assert.ok(values, `a row ${label}`);
    const metric = (metrics: object | null | undefined) => ((metrics as Record<string, number | null> | null | undefined)?.[key] ?? null);
    assert.deepEqual(values.slice(1), [metric(evaluation.test), metric(evaluation.train), metric(evaluation.baseline?.linear), metric(evaluation.baseline?.constant)], label);
  }
}

async function getReport(call: Call, versionId: string, format?: string) {
  const res = await call('GET', `/v1/models/versions/${versionId}/report${format ? `?format=${format}` : ''}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  return res;
}

async function train(call: Call, json: Record<string, unknown>): Promise<TrainResult> {
  const res = await call('POST', '/v1/models/train', { json });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return TrainResultSchema.parse(res.body);
}

describe('service: model report', function () {
  this.timeout(120_000);
  const env = useService();
  const evaluationOf = async (partitionId: string) => EvaluationSchema.parse((await env.call('GET', `/v1/models/evaluation/${partitionId}`)).body);
  const profileOf = async (versionId: string): Promise<ModelProfile> => ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${versionId}`)).body);

  describe('a binary classifier', () => {
    let trained: TrainResult;
    let datasetId: string;
    let html: string;

    before(async () => {
      datasetId = await uploadCsv(env.call, smallCsv(300), 'small.csv');
      trained = await train(env.call, { target_column: 'label', model_name: 'small', dataset_id: datasetId });
      const res = await getReport(env.call, trained.version_id);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      html = res.body;
    });

    it('has every section, in order, and a page that loads nothing, runs nothing and links nowhere but to itself', () => {
      const at = SECTIONS.map(([id, text]) => html.indexOf(`<h2 id="${id}">${text}</h2>`));
      assert.ok(at.every((i) => i > 0), JSON.stringify(at));
      assert.deepEqual([...at].sort((a, b) => a - b), at);
      for (const [id, text] of SECTIONS) assert.ok(html.includes(`<a href="#${id}">${text}</a>`), `contents: ${text}`);
      assertInert(html);
      assert.doesNotMatch(html, /https?:\/\/|<script|@import|url\(/i);
      assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
      assert.match(html, /@media print/);
    });

    it("reports the test metrics, the baselines and the train metrics exactly as GET evaluation does", async () => {
      const evaluation = await evaluationOf(trained.partitions[0].partition_id);
      assert.ok(evaluation.baseline?.linear);
      assertMetrics(tableRows(section(html, 'metrics')), evaluation, { Accuracy: 'accuracy', 'ROC AUC': 'roc_auc', 'PR AUC': 'auc_pr', F1: 'f1', 'Log loss': 'log_loss', 'Brier score': 'brier', MCC: 'mcc' });
      const [[tn, fp], [fn, tp]] = (evaluation.test as { confusion_matrix: number[][] }).confusion_matrix;
      const confusion = tableRows(section(html, 'evaluation'));
      assert.deepEqual(confusion.map((r) => r.values.slice(1)), [[tn, fp], [fn, tp]]);
      assert.deepEqual(confusion.map((r) => r.cells[0]), ['no', 'yes']);
    });

    it('reports the importances and every step of every feature as the profile does, the missing-value bin too', async () => {
      const profile = await profileOf(trained.version_id);
      if (profile.model_type !== 'binary_classification') assert.fail(profile.model_type);
      const [partition] = profile.partitions;
      const importances = tableRows(section(html, 'importances'));
      assert.deepEqual(importances.map((r) => [r.cells[0], r.values[1]]), importancesOf(partition));
      const steps = section(html, 'steps');
      assert.ok(steps.includes(`Base value: ${formatNumber(partition.base_value)}.`));
      const figures = steps.split('<figure>').slice(1).filter((f) => f.includes('aria-label="Steps of '));
      assert.equal(figures.length, 3);
      for (const figure of figures) {
        const feature = decoded(/aria-label="Steps of ([^"]*)"/.exec(figure)?.[1] ?? '');
        const bins: { score: number; missing?: boolean }[] = partition.numeric[feature] ?? partition.categorical[feature];
        assert.ok(bins, feature);
        assert.ok(bins.at(-1)?.missing, `${feature} ends with its missing-value bin`);
        assert.deepEqual(contributions(figure), bins.map((b) => signed(b.score)), feature);
        assert.match(figure, /missing/);
      }
      assert.match(steps, /<path d="M[\d.]+ [\d.]+H/, 'a numeric feature is a step line');
    });

    it("labels the axes of each numeric feature's steps with the ticks the profile panel draws for the feature", async () => {
      const { profile } = panelProfile(await profileOf(trained.version_id));
      const partition = pickPartition(profile.partitions);
      assert.ok(partition);
      const figures = section(html, 'steps').split('<figure>').slice(1).filter((f) => f.includes('aria-label="Steps of '));
      const numeric = Object.keys(partition.numeric);
      assert.deepEqual(numeric.sort(), ['size', 'x']);
      for (const feature of numeric) {
        const figure = figures.find((f) => f.includes(`aria-label="Steps of ${feature}"`));
        const series = featureSeries(partition, feature);
        assert.ok(figure && series?.kind === 'numeric', feature);
        // The panel's chart of a feature as the profile shows it: no edit, no chart beside it to share scales with.
        const panelContribution = tickLabels(contributionTicks(series).ticks);
        const panelValues = tickLabels(valueTicks(series));
        assert.ok(panelContribution.length >= 3 && panelValues.length >= 3, `${feature}: ${panelContribution} / ${panelValues}`);
        assert.deepEqual(contributionAxis(figure), panelContribution, `${feature}: contribution axis`);
        assert.deepEqual(valueAxis(figure), panelValues, `${feature}: value axis`);
      }
    });

    it('names the dataset with its rows and columns, the split, the parameters, no edits, and the Python export', async () => {
      const data = section(html, 'data');
      assert.match(data, /<code>small\.csv<\/code>: 300 rows and 4 columns\./);
      assert.deepEqual(tableRows(data).find((r) => r.cells[0] === 'All data')?.values.slice(1), [trained.n_train, trained.n_test]);
      assert.ok(tableRows(section(html, 'parameters')).some((r) => r.cells[0] === 'seed' && r.cells[1] === '42'));
      assert.match(section(html, 'edits'), /None: this version applied no hand edits\./);
      const payload = ModelPayloadSchema.parse((await env.call('GET', `/v1/models/versions/${trained.version_id}/payload`)).body);
      const code = /<pre><code class="language-python">([\s\S]*)<\/code><\/pre>/.exec(section(html, 'scoring'))?.[1] ?? '';
      assert.equal(decoded(code), toPython(scoringTablesFromPayload(payload, 'small v1')), 'the code Export Model as Python writes');
      assert.match(section(html, 'health'), /found no problem/);
    });

    it('as Markdown: the same sections, each chart an SVG image in a data: URI that splitImages writes as a file', async () => {
      const res = await getReport(env.call, trained.version_id, 'markdown');
      assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
      const markdown: string = res.body;
      for (const [, text] of SECTIONS) assert.match(markdown, new RegExp(`^## ${text}$`, 'm'), text);
      const figures = (html.match(/<figure>/g) ?? []).length;
      const { markdown: linked, images } = splitImages(markdown, 'small v1 (report)-figures');
      assert.equal(images.length, figures);
      for (const image of images) {
        assert.match(image.svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[^"]+"[^>]*>.*<\/svg>$/s);
        assert.ok(linked.includes(`](small%20v1%20%28report%29-figures/${image.path.split('/')[1]})`), image.path);
      }
      assert.doesNotMatch(linked, /data:/);
      assert.match(markdown, /^```python$/m);
    });

    it('lists edits that a refit applied, and the client fetches the same report', async () => {
      const edits = [{ feature: 'x', op: 'shift', bins: [0, 2], value: 0.5 }, { feature: 'color', op: 'set', bins: 'missing', value: -1 }];
      const refit = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits, dataset_id: datasetId, target_column: 'label' } });
      assert.equal(refit.status, 200, JSON.stringify(refit.body));
      const client = new XModelsClient({ baseUrl: env.service.url, apiKey: env.service.apiKey });
      try {
        const edited = await client.models.getModelReport(refit.body.version_id);
        const rows = tableRows(section(edited, 'edits'));
        assert.deepEqual(
          rows.map((r) => r.cells.slice(0, 7)),
          [
            ['1', 'x', 'shift', '0 to 2', '0.5', 'every partition', '—'],
            ['2', 'color', 'set', 'the missing value', '-1', 'every partition', '—'],
          ],
        );
        assert.match(section(edited, 'edits'), new RegExp(`to the steps of version ${trained.version_id}`));
        const markdown = await client.models.getModelReport(refit.body.version_id, 'markdown');
        assert.match(markdown, /^## Hand edits$/m);
      } finally {
        await client.close();
      }
    });

    it('refuses a format it does not know by name and value, and a version it does not have', async () => {
      const bad = await env.call('GET', `/v1/models/versions/${trained.version_id}/report?format=pdf`);
      assert.equal(bad.status, 422);
      assert.equal(bad.body.error.fields[0].path, 'format');
      assert.match(bad.body.detail, /"pdf"/);
      assert.equal((await env.call('GET', '/v1/models/versions/00000000-0000-0000-0000-000000000000/report')).status, 404);
    });
  });

  it('a regressor: predicted against actual, the residual histogram, and each partition with its own metrics', async () => {
    const carsId = await uploadCsv(env.call, readFileSync(join(DATASETS, 'cars.csv'), 'utf8'), 'cars.csv');
    const trained = await train(env.call, { target_column: 'Miles_per_Gallon', model_type: 'regressor', model_name: 'mpg', dataset_id: carsId, drop_columns: ['Name'], partition_on: 'Origin' });
    const html: string = (await getReport(env.call, trained.version_id)).body;
    assertInert(html);
    assert.doesNotMatch(html, /https?:\/\//);
    const partitions = PartitionListSchema.parse((await env.call('GET', `/v1/models/partitions/${trained.version_id}`)).body).partitions;
    assert.equal(partitions.length, 4);
    const metrics = section(html, 'metrics');
    const parts = metrics.split(/<h3 id="metrics-p\d+">/).slice(1);
    assert.equal(parts.length, partitions.length);
    for (const partition of partitions) {
      const label = partition.partition === '__dataset__' ? 'All data (rows of any other Origin value)' : `Origin = ${partition.partition}`;
      const part = parts.find((p) => p.startsWith(`${label}</h3>`));
      assert.ok(part, label);
      const evaluation = await evaluationOf(partition.partition_id);
      assertMetrics(tableRows(part), evaluation, { 'R²': 'r2', RMSE: 'rmse', MAE: 'mae', MAPE: 'mape', 'Explained variance': 'explained_variance' });
    }
    const evaluation = section(html, 'evaluation');
    for (const partition of partitions) {
      const label = partition.partition === '__dataset__' ? 'All data' : partition.partition;
      assert.ok(evaluation.includes(`aria-label="Predicted against actual (${label})"`), label);
      assert.ok(evaluation.includes(`aria-label="Residuals (${label})"`), label);
    }
    const wholeEvaluation = await evaluationOf(partitions[0].partition_id);
    const residuals = evaluation.split('aria-label="Residuals (All data)"')[1].split('</svg>')[0];
    assert.equal((residuals.match(/ rows<\/title>/g) ?? []).length, (wholeEvaluation.test as { residual_bins: { counts: number[] } }).residual_bins.counts.length);
    const profile = await profileOf(trained.version_id);
    if (profile.model_type === 'multiclass_classification') assert.fail('a regressor');
    const steps = section(html, 'steps');
    const features = profile.partitions.reduce((sum, p) => sum + Object.keys(p.numeric).length + Object.keys(p.categorical).length, 0);
    assert.equal((steps.match(/<figure><svg[^>]* aria-label="Steps of /g) ?? []).length, features);
    const pairs = profile.partitions.flatMap((p) => p.interactions ?? []);
    assert.ok(pairs.length > 0, 'the boosted regressor has pair terms');
    assert.equal((steps.match(/<figure><svg[^>]* aria-label="Pair /g) ?? []).length, pairs.length);
    const paired = profile.partitions.find((p) => p.interactions?.length);
    const [pair] = paired?.interactions ?? [];
    assert.ok(paired && pair);
    const label = paired.partition === '__dataset__' ? 'All data' : paired.partition;
    const figure = steps.split(`aria-label="Pair ${pair.features[0]} × ${pair.features[1]} (${label})"`)[1].split('</svg>')[0];
    assert.deepEqual(contributions(figure), pair.scores.flat().map(signed), 'every cell of the pair, as the profile gives it');
    const heading = paired.partition === '__dataset__' ? 'All data (rows of any other Origin value)' : `Origin = ${paired.partition}`;
    const importances = tableRows(section(html, 'importances').split(`">${heading}</h3>`)[1].split('<h3')[0]);
    assert.deepEqual(importances.map((r) => [r.cells[0], r.values[1]]), importancesOf(paired));
  });

  it('a multiclass classifier: the steps and importances of every class model, and each class against the rest', async () => {
    const penguinsId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
    const trained = await train(env.call, { target_column: 'Species', model_name: 'species', dataset_id: penguinsId });
    const html: string = (await getReport(env.call, trained.version_id)).body;
    assertInert(html);
    const profile = await profileOf(trained.version_id);
    if (profile.model_type !== 'multiclass_classification') assert.fail(profile.model_type);
    const steps = section(html, 'steps');
    const importances = section(html, 'importances');
    for (const [index, cls] of profile.partitions[0].per_class.entries()) {
      assert.ok(steps.includes(`<h3 id="steps-p0-c${index + 1}">Class ${cls.class}</h3>`), cls.class);
      const part = importances.split(`<h3 id="importances-p0-c${index + 1}">Class ${cls.class}</h3>`)[1].split('<h3')[0];
      assert.deepEqual(tableRows(part).map((r) => [r.cells[0], r.values[1]]), importancesOf(cls));
      const figures = steps.split(`<h3 id="steps-p0-c${index + 1}">`)[1].split('<h3')[0].split('<figure>').slice(1);
      assert.equal(figures.length, Object.keys(cls.numeric).length + Object.keys(cls.categorical).length + (cls.interactions?.length ?? 0));
      const beak = figures.find((f) => f.includes('aria-label="Steps of Beak Length (mm) (class '));
      assert.ok(beak);
      assert.deepEqual(contributions(beak), cls.numeric['Beak Length (mm)'].map((b) => signed(b.score)));
    }
    const evaluation = await evaluationOf(trained.partitions[0].partition_id);
    assertMetrics(tableRows(section(html, 'metrics')), evaluation, { Accuracy: 'accuracy', 'ROC AUC (macro, one-vs-rest)': 'roc_auc', 'Log loss': 'log_loss', MCC: 'mcc' });
    const test = evaluation.test as { per_class: { class: string; support: number; precision: number; recall: number; f1: number; roc_auc: number }[]; confusion_matrix: { matrix: number[][] } };
    const charts = tableRows(section(html, 'evaluation'));
    for (const c of test.per_class) {
      assert.deepEqual(charts.find((r) => r.cells[0] === c.class)?.values.slice(1), [c.support, c.precision, c.recall, c.f1, c.roc_auc], c.class);
    }
    assert.deepEqual(charts.slice(-3).map((r) => r.values.slice(1)), test.confusion_matrix.matrix);
  });

  it('escapes every name that comes from data: model, dataset, columns, categories, classes and partitions', async () => {
    const hostile = {
      model: '</script><img src=x onerror=alert(1)>',
      file: '</title><script>alert(2)</script>.csv',
      numeric: '"><svg onload=alert(3)>',
      category: "[link](http://evil.example/x.png) *em* | `tick` <!-- ]]>",
      partition: '<h1>part</h1>\u202e',
    };
    const values = ['<img src=x onerror=alert(4)>', '</text></svg><script>alert(5)</script>', 'a\nb & "c"'];
    const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
    const lines = [[hostile.numeric, hostile.category, hostile.partition, 'label'].map(quote).join(',')];
    for (let i = 0; i < 240; i++) {
      const x = (i * 37) % 100;
      lines.push([String(x), quote(values[i % 3]), quote(i % 2 ? '<b>p1</b>' : 'p2 & "q"'), x + (i % 3 === 0 ? 20 : 0) > 60 ? '<i>yes</i>' : "no'"].join(','));
    }
    const datasetId = await uploadCsv(env.call, `${lines.join('\n')}\n`, hostile.file);
    const trained = await train(env.call, { target_column: 'label', model_name: hostile.model, dataset_id: datasetId, partition_on: hostile.partition });
    const refit = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits: [{ feature: hostile.numeric, op: 'shift', bins: [0, 1], value: 0.25, partition: '<b>p1</b>' }], dataset_id: datasetId, target_column: 'label' } });
    assert.equal(refit.status, 200, JSON.stringify(refit.body));
    const html: string = (await getReport(env.call, refit.body.version_id)).body;
    assertInert(html);
    for (const text of [hostile.model, hostile.file, hostile.numeric, ...values, '<b>p1</b>', '<i>yes</i>']) assert.ok(!html.includes(text), `${text} as it is`);
    assert.ok(html.includes('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;'), 'the model name, escaped');
    assert.ok(html.includes('&lt;h1&gt;part&lt;/h1&gt;\\u202e'), 'the partition column, with its direction mark visible');
    assert.ok(!html.includes('\u202e'));
    assert.ok(html.includes('a\\nb &amp; &quot;c&quot;'), 'a category with a line break, on one line');
    assert.deepEqual(tableRows(section(html, 'edits'))[0]?.cells.slice(1, 6), [hostile.numeric, 'shift', '0 to 1', '0.25', '<b>p1</b>'], 'the edit, by its names');
    assert.ok(html.includes('<h3 id="metrics-p1">'), 'the partitions');

    const markdown: string = (await getReport(env.call, refit.body.version_id, 'markdown')).body;
    // Outside code, whose text Markdown shows as it is, no character of the Markdown opens HTML or an image or link.
    const text = markdown
      .replace(/^(`{3,})python\n[\s\S]*?\n\1$/m, '')
      .replace(/!\[(?:\\.|[^\\\]])*\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)/g, '')
      .replace(/(`+) .*? \1/g, '');
    assert.doesNotMatch(text, /<|\]\(|!\[|\n {4}/);
    assert.ok(!text.includes('\u202e'));
    for (const image of splitImages(markdown, 'figures').images) {
      assert.doesNotMatch(image.svg, /<(?!\/?(svg|title|g|path|line|rect|text)[ >])/, 'an SVG of its own elements only');
      assert.ok(![...image.svg].some((c) => (c < ' ' && !'\t\n\r'.includes(c)) || c === '\ufffe' || c === '\uffff'), 'valid XML');
    }
  });

  it('draws each step’s band and says how a time split chose the test rows', async () => {
    const lines = ['day,x,y'];
    for (let r = 0; r < 300; r++) {
      const x = (r * 37) % 100;
      lines.push(`${new Date(Date.UTC(2024, 0, 1 + (r % 90))).toISOString().slice(0, 10)},${x},${(x > 50 ? 3 : 0) + ((r * 7919) % 13) / 13}`);
    }
    const datasetId = await uploadCsv(env.call, lines.join('\n'), 'days.csv');
    const trained = await train(env.call, { target_column: 'y', model_name: 'days', dataset_id: datasetId, model_type: 'regressor', split: { time_column: 'day' }, test_size: 0.2 });
    const bins = pickPartition(panelProfile(await profileOf(trained.version_id)).profile.partitions)?.numeric.x ?? [];
    assert.ok(bins.some((bin) => (bin.score_std ?? 0) > 0), 'a model fitted in bags has a spread');
    const html: string = (await getReport(env.call, trained.version_id)).body;
    const steps = section(html, 'steps');
    assert.match(steps, /<figcaption>x: importance [^<]*; the band: ±2 standard errors across the bags/);
    assert.match(steps, /<path d="M[^"]*Z" fill="#0072b2" fill-opacity="0.2" stroke="none">/, 'the band as a closed path behind the steps');
    const spread = bins.find((bin) => !bin.missing && (bin.score_std ?? 0) > 0);
    assert.ok(spread);
    assert.ok(decoded(steps).includes(`contribution ${signed(spread.score)} ±${formatNumber(2 * (spread.score_std ?? 0))}`), 'the band in the tooltip');
    const partitions = PartitionListSchema.parse((await env.call('GET', `/v1/models/partitions/${trained.version_id}`)).body).partitions;
    const split = (await evaluationOf(partitions[0].partition_id)).split;
    assert.ok(split && typeof split.test_from === 'string');
    assert.ok(
      section(html, 'metrics').includes(`This version was tested on the latest 20% by \`day\`, from ${split.test_from.slice(0, 10)} (${formatNumber(split.n_test)} rows).`),
      'the split sentence under the test metrics',
    );
  });

  it('is listed in the OpenAPI document with its formats', async () => {
    const openapi = (await env.call('GET', '/v1/openapi.json')).body;
    const operation = openapi.paths['/v1/models/versions/{version_id}/report'].get;
    assert.equal(operation.operationId, 'get_model_report');
    assert.deepEqual(Object.keys(operation.responses['200'].content), ['text/html', 'text/markdown']);
    assert.deepEqual(
      operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
      ['path:version_id', 'query:format'],
    );
    const health = (await env.call('GET', '/v1/health')).body;
    assert.ok(health.features.includes('model_report'));
  });
});
