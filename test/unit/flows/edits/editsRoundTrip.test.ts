import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XModelsClient } from '../../../../src/client';
import type { CategoricalBin, Edit, ModelInfo, ModelProfile, ModelVersion, NumericBin } from '../../../../src/contract';
import { applyEditsFile, type ApplyEditsDeps } from '../../../../src/flows/edits/applyEditsFlow';
import { editsToSend } from '../../../../src/flows/edits/editsReport';
import { exportEdits } from '../../../../src/flows/edits/exportEditsFlow';
import { startLocalService, type LocalService } from '../../client/localService';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';
import { DATASETS } from '../../service/harness';

type Bins = (NumericBin | CategoricalBin)[];

/** A feature's bins in the (only) partition of a regression profile, the missing-value bin last. */
function binsOf(profile: ModelProfile, feature: string): Bins {
  assert.equal(profile.model_type, 'regression');
  const part = profile.partitions[0];
  return part.numeric[feature] ?? part.categorical[feature] ?? [];
}
const valueBins = (profile: ModelProfile, feature: string) => binsOf(profile, feature).filter((b) => !b.missing) as NumericBin[];
const sameBounds = (a: NumericBin, b: NumericBin) => (a.lower ?? null) === (b.lower ?? null) && (a.upper ?? null) === (b.upper ?? null);
const HORSEPOWER_BINS = 8;
const WEIGHT_SHIFT = 0.25;

/**
 * Export and apply against the real local service: a version edited by hand, its edits written as a file, and the
 * file applied to the same model retrained with another seed (its bins moved a little) and without one feature.
 */
describe('edits as text, against the local service', function () {
  this.timeout(180_000);
  let service: LocalService;
  let client: XModelsClient;
  let model: ModelInfo;
  let parent: ModelVersion;
  let edited: ModelVersion;
  let retrained: ModelVersion;
  const profile = (versionId: string) => client.models.getModelProfile(versionId);
  const versionOf = async (versionId: string) => {
    const found = (await client.models.listModelVersions(model.model_id)).find((v) => v.version_id === versionId);
    assert.ok(found, versionId);
    return found;
  };

  before(async () => {
    service = await startLocalService();
    client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key });
    const csv = join(service.dataDir, 'cars.csv');
    writeFileSync(csv, readFileSync(join(DATASETS, 'cars.csv')));
    const train = (seed: number, drop: string[]) =>
      client.models.trainModel({
        file_path: csv,
        target_column: 'Miles_per_Gallon',
        model_type: 'regressor',
        method: 'xplainable',
        seed,
        drop_columns: ['Name', 'Year', ...drop],
        ...(model ? { model_id: model.model_id } : { model_name: 'cars' }),
      });
    const first = await train(1, []);
    model = await client.models.getModel(first.model_id);
    parent = await versionOf(first.version_id);

    // By hand: each of the first Horsepower bins set to its own value, each Origin category too, every Weight bin
    // shifted, and the missing-value bin of Acceleration shifted.
    const origins = valueBins(await profile(parent.version_id), 'Origin');
    const edits: Edit[] = [
      ...Array.from({ length: HORSEPOWER_BINS }, (_, i): Edit => ({ feature: 'Horsepower', op: 'set', bins: [i, i], value: 10 + i })),
      ...origins.map((_, i): Edit => ({ feature: 'Origin', op: 'set', bins: [i, i], value: 20 + i })),
      { feature: 'Weight_in_lbs', op: 'shift', bins: [0, valueBins(await profile(parent.version_id), 'Weight_in_lbs').length - 1], value: WEIGHT_SHIFT },
      { feature: 'Acceleration', op: 'shift', bins: 'missing', value: 1 },
    ];
    edited = await versionOf((await client.models.refitModel(parent.version_id, { edits, dataset_id: parent.dataset_id as string, target_column: 'Miles_per_Gallon' })).version_id);
    assert.equal(edited.edits?.length, edits.length);

    // The same data retrained with another seed, without Acceleration.
    retrained = await versionOf((await train(2, ['Acceleration'])).version_id);
  });
  after(() => service?.stop());

  /** Exports the edits of the hand-edited version, picked from the model's versions saved with edits. */
  async function exported(offered?: string[]) {
    const prompter = new ScriptedPrompter([
      { id: 'model', reply: { pick: 'cars' } },
      { id: 'version', reply: { pick: `v${edited.version_number}` } },
    ]);
    const result = await exportEdits({ prompter, models: client.models });
    assert.ok(result);
    assert.equal(prompter.remaining, 0);
    if (offered) assert.deepEqual(prompter.prompts[1].labels, offered);
    return result;
  }

  function applying(answers: ScriptedAnswer[]) {
    const reports: string[] = [];
    const prompter = new ScriptedPrompter(answers);
    const deps: ApplyEditsDeps = {
      prompter,
      models: client.models,
      showReport: async (markdown) => void reports.push(markdown),
      underProgress: (_title, task) => task(new AbortController().signal),
    };
    return { deps, prompter, reports };
  }

  it('writes the edits of a version with the bounds and categories of their bins, as git-friendly JSON', async () => {
    // Only the version saved with edits is offered.
    const { file, text, fileName, version } = await exported([`v${edited.version_number}`]);
    assert.equal(version.version_id, edited.version_id);
    assert.equal(fileName, `cars-v${edited.version_number}.edits.json`);
    assert.deepEqual(file.source, {
      model_id: model.model_id,
      model_name: 'cars',
      target_name: 'Miles_per_Gallon',
      version_id: edited.version_id,
      version_number: edited.version_number,
      parent_version_id: parent.version_id,
    });
    const hp = valueBins(await profile(parent.version_id), 'Horsepower');
    file.edits.slice(0, HORSEPOWER_BINS).forEach((edit, i) => assert.deepEqual(edit.bounds, [[hp[i].lower ?? null, hp[i].upper ?? null]]));
    const origins = (binsOf(await profile(parent.version_id), 'Origin') as CategoricalBin[]).filter((b) => !b.missing).map((b) => b.category);
    assert.deepEqual(file.edits.filter((e) => e.feature === 'Origin').map((e) => e.categories?.[0]), origins);
    assert.ok(file.edits.every((e) => e.applied_at === edited.created && typeof e.applied_by === 'string'));
    assert.ok(text.endsWith('\n') && text.includes('\n  "edits": [\n    {\n      "feature": "Horsepower",'));
    // Exporting again gives the same bytes.
    assert.equal((await exported()).text, text);
  });

  it('applied to the retrained version, gives the edited steps on the bins whose bounds are unchanged and reports the others', async () => {
    const { text, fileName } = await exported();
    const { deps, prompter, reports } = applying([
      { id: 'model', reply: 'accept' },
      { id: 'version', reply: 'accept' },
      { id: 'save', reply: { confirm: true } },
    ]);
    const outcome = await applyEditsFile(deps, fileName, text);
    assert.ok(outcome?.saved && outcome.preview);
    assert.equal(prompter.remaining, 0);
    // The model the file came from is offered first, and its newest version (the retrained one) is picked.
    assert.equal(prompter.prompts[0].picked[0], 'cars');
    assert.equal(prompter.prompts[1].picked[0], `v${retrained.version_number}`);
    assert.equal(outcome.version.version_id, retrained.version_id);

    const [made, before, after] = await Promise.all([profile(parent.version_id), profile(retrained.version_id), profile(outcome.saved.version_id)]);
    const madeHp = valueBins(made, 'Horsepower');
    const beforeHp = valueBins(before, 'Horsepower');
    const afterHp = valueBins(after, 'Horsepower');
    let unchanged = 0;
    let moved = 0;
    const landed = new Set<number>();
    outcome.mapped.slice(0, HORSEPOWER_BINS).forEach((m, i) => {
      const there = beforeHp.findIndex((b) => sameBounds(b, madeHp[i]));
      if (there >= 0) {
        unchanged++;
        assert.equal(m.problem, undefined, `bin ${i}`);
        assert.equal(afterHp[there].score, 10 + i, `the step of the bin from ${madeHp[i].lower} to ${madeHp[i].upper}`);
        landed.add(there);
      } else {
        moved++;
        assert.match(m.problem ?? '', new RegExp(`^v${retrained.version_number} has no bin of Horsepower (starting|ending) at `), `bin ${i}`);
        assert.match(reports[0], new RegExp(`- ${m.index + 1}\\. set Horsepower .* to ${10 + i}: v${retrained.version_number} has no bin of Horsepower`));
      }
    });
    assert.ok(unchanged > 0 && moved > 0, `the retrained version keeps some of the bins and moves others (${unchanged} kept, ${moved} moved)`);
    // Bins no edit landed on keep the retrained steps.
    afterHp.forEach((bin, k) => {
      if (!landed.has(k)) assert.equal(bin.score, beforeHp[k].score, `Horsepower bin ${k}`);
      assert.ok(sameBounds(bin, beforeHp[k]));
    });

    const origins = (binsOf(made, 'Origin') as CategoricalBin[]).filter((b) => !b.missing);
    const afterOrigins = binsOf(after, 'Origin') as CategoricalBin[];
    origins.forEach((bin, i) => assert.equal(afterOrigins.find((b) => b.category === bin.category)?.score, 20 + i, String(bin.category)));

    // The whole range of Weight: the same values over other bins, so it fits with a note.
    const weight = outcome.mapped.find((m) => m.edit.feature === 'Weight_in_lbs');
    assert.ok(weight && weight.problem === undefined);
    assert.match(weight.notes[0], /bins of Weight_in_lbs from −∞ to \+∞, not the \d+ it was made on/);
    const beforeWeight = valueBins(before, 'Weight_in_lbs');
    valueBins(after, 'Weight_in_lbs').forEach((bin, k) => assert.ok(Math.abs(bin.score - (beforeWeight[k].score + WEIGHT_SHIFT)) < 1e-12, `Weight bin ${k}`));

    const acceleration = outcome.mapped.find((m) => m.edit.feature === 'Acceleration');
    assert.match(acceleration?.problem ?? '', new RegExp(`^v${retrained.version_number} has no feature Acceleration; its features are `));

    // The saved version records the edits sent, and has the metrics the preview showed.
    const saved = await versionOf(outcome.saved.version_id);
    assert.deepEqual(saved.edits?.map(({ applied_at: _at, applied_by: _by, ...edit }) => edit), editsToSend(outcome.mapped));
    assert.equal(saved.parent_version_id, retrained.version_id);
    assert.deepEqual(outcome.saved.test_metrics, outcome.preview.after.test_metrics);
    assert.match(reports[0], new RegExp(`^# Edits from cars-v${edited.version_number}\\.edits\\.json on cars v${retrained.version_number}\\n`));
    assert.match(reports[0], new RegExp(`applied to v${retrained.version_number} .*: ${unchanged + origins.length + 1} of ${outcome.mapped.length} edits fit\\.`));
  });

  it('applied to the version the edits were made on, fits every edit and saves the steps of the edited version', async () => {
    const { text, fileName } = await exported();
    const { deps } = applying([{ id: 'save', reply: { confirm: true } }]);
    const outcome = await applyEditsFile(deps, fileName, text, { model, version: parent });
    assert.ok(outcome?.saved);
    assert.deepEqual(outcome.mapped.map((m) => [m.problem, m.notes]), outcome.mapped.map(() => [undefined, []]));
    const [want, got] = await Promise.all([profile(edited.version_id), profile(outcome.saved.version_id)]);
    assert.deepEqual(got.partitions, want.partitions);
  });

  it('saves nothing when the user declines, and reports an edit the service refuses with its reason', async () => {
    const versions = (await client.models.listModelVersions(model.model_id)).length;
    const file = JSON.parse((await exported()).text);
    // Removing a feature needs a boosted version; this one is xplainable.
    file.edits.push({ feature: 'Cylinders', op: 'remove' });
    const { deps, reports } = applying([{ id: 'save', reply: { confirm: false } }]);
    const outcome = await applyEditsFile(deps, 'by-hand.edits.json', JSON.stringify(file), { model, version: parent });
    assert.ok(outcome && !outcome.saved && outcome.preview);
    const refused = outcome.mapped[outcome.mapped.length - 1];
    assert.match(refused.problem ?? '', /^the service refuses it \(op: removing a feature needs a model fitted with the boosted method/);
    assert.deepEqual(refused.edits, []);
    assert.ok(outcome.mapped.slice(0, -1).every((m) => m.problem === undefined));
    assert.match(reports[0], /## Edits that do not fit \(1\)\n\n- \d+\. remove Cylinders: the service refuses it/);
    assert.equal((await client.models.listModelVersions(model.model_id)).length, versions);
  });
});
