import assert from 'node:assert/strict';
import { l10n, translateWith } from '../../../src/l10n/l10n';

describe('localisation outside the VS Code API', () => {
  it('fills the placeholders of the English message until a translator is set, then asks it', () => {
    assert.equal(l10n.t('Train "{0}" on {1} rows ({0})?', 'churn', 1200), 'Train "churn" on 1200 rows (churn)?');
    assert.equal(l10n.t('Kept {1} as is', 'only one'), 'Kept {1} as is');
    const asked: unknown[][] = [];
    translateWith((message, ...args) => {
      asked.push([message, ...args]);
      return `«${message}»`;
    });
    try {
      assert.equal(l10n.t('Model name'), '«Model name»');
      assert.deepEqual(asked, [['Model name']]);
    } finally {
      translateWith(undefined);
    }
  });
});
