import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from '../../../src/common/settingsSchema';
import { defaultParams } from '../../../src/views/trainingParams';
import { DEFAULT_FIT_METHOD, FIT_METHODS, PARAMS_WITH_SETTING, TRAINING_PARAM_NAMES, TRAINING_PARAMS, type ParamEntry } from '../../../src/engine';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
const properties = manifest.contributes.configuration.properties as Record<string, Record<string, unknown>>;

describe('training settings', () => {
  it('has one setting per parameter that names one, with the table’s default, in the schema and the manifest', () => {
    const { settings } = parseSettings({});
    const trainingKeys = Object.keys(properties).filter((key) => key.startsWith('xmodels.training.'));
    assert.deepEqual(trainingKeys.sort(), ['method', ...PARAMS_WITH_SETTING.map((name) => TRAINING_PARAMS[name].setting)].map((s) => `xmodels.training.${s}`).sort());
    assert.equal(settings.training.method, DEFAULT_FIT_METHOD);
    assert.deepEqual(properties['xmodels.training.method'], { ...properties['xmodels.training.method'], default: DEFAULT_FIT_METHOD, enum: [...FIT_METHODS] });
    for (const name of PARAMS_WITH_SETTING) {
      const { setting, default: fallback, range }: ParamEntry & { setting: string } = TRAINING_PARAMS[name];
      assert.equal(settings.training[TRAINING_PARAMS[name].setting], fallback, setting);
      const prop = properties[`xmodels.training.${setting}`];
      assert.equal(prop.default, fallback, setting);
      if (range.values) assert.deepEqual(prop.enum, range.values, setting);
      else {
        assert.equal(range.minOpen ? prop.exclusiveMinimum : prop.minimum, range.min, setting);
        assert.equal(range.maxOpen ? prop.exclusiveMaximum : prop.maximum, range.max === Infinity ? undefined : range.max, setting);
      }
    }
  });

  it('refuses a setting out of the parameter’s range, naming the setting', () => {
    for (const name of PARAMS_WITH_SETTING) {
      const { setting, range } = TRAINING_PARAMS[name];
      const { problems } = parseSettings({ training: { [setting]: range.min - 1 } });
      assert.equal(problems.length, 1, setting);
      assert.match(problems[0], new RegExp(`^xmodels\\.training\\.${setting} `));
    }
  });

  it('starts the parameter editor from the settings, and from the table where a parameter has no setting', () => {
    const values = defaultParams({ ...parseSettings({}).settings.training, maxDepth: 5 });
    for (const name of TRAINING_PARAM_NAMES) assert.equal(values[name], name === 'max_depth' ? 5 : TRAINING_PARAMS[name].default, name);
  });
});
