import assert from 'node:assert/strict';
import { parseSettings } from '../../../src/common/settingsSchema';

describe('settings schema', () => {
  it('fills every default when nothing is set', () => {
    const { settings, problems } = parseSettings({});
    assert.deepEqual(problems, []);
    assert.equal(settings.connection.mode, 'local');
    assert.equal(settings.hosted.baseUrl, '');
    assert.equal(settings.network.requestTimeoutSeconds, 120);
    assert.equal(settings.models.pageSize, 200);
    assert.deepEqual(settings.training, {
      testSize: 0.2,
      method: 'boosted',
      maxDepth: 8,
      minInfoGain: 0.0001,
      minLeafSize: 0.0001,
      weight: 1,
      powerDegree: 1,
      sigmoidExponent: 0,
      tailSensitivity: 1,
      seed: 42,
    });
    assert.equal(settings.trace.requests, 'off');
  });

  it('normalises the hosted address and path prefix', () => {
    const { settings } = parseSettings({ hosted: { baseUrl: '  https://models.example.com/// ', pathPrefix: 'v1/client/' } });
    assert.equal(settings.hosted.baseUrl, 'https://models.example.com');
    assert.equal(settings.hosted.pathPrefix, '/v1/client');
  });

  it('replaces each invalid value by its default and names the setting and the value', () => {
    const { settings, problems } = parseSettings({
      connection: { mode: 'cloud' },
      training: { weight: 5, maxDepth: 6, powerDegree: 2 },
      hosted: { baseUrl: 'ftp://example.com' },
    });
    assert.equal(settings.connection.mode, 'local');
    assert.equal(settings.training.weight, 1);
    assert.equal(settings.training.maxDepth, 6, 'valid neighbours are kept');
    assert.equal(settings.training.powerDegree, 1);
    assert.equal(settings.hosted.baseUrl, '');
    assert.equal(problems.length, 4);
    assert.ok(problems.some((p) => p.startsWith('xmodels.training.weight') && p.includes('(got 5)')), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('xmodels.connection.mode') && p.includes('"cloud"')), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('xmodels.hosted.baseUrl') && p.includes('http:// or https://')), problems.join('\n'));
  });

  it('rejects a value of the wrong type', () => {
    const { settings, problems } = parseSettings({ predict: { threshold: 'high', includeContributions: true } });
    assert.equal(settings.predict.threshold, 0.5);
    assert.equal(settings.predict.includeContributions, true);
    assert.match(problems[0], /^xmodels\.predict\.threshold .*"high"/);
  });
});
