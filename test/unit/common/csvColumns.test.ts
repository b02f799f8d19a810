import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifierLabel, modelTypesFor, partitionCandidates, rankTargets, sniffCsv, suggestDropColumns, suggestModelType } from '../../../src/common/csvColumns';

const dataset = (name: string) => readFileSync(join(__dirname, '../../../media/datasets', name), 'utf8');

describe('CSV column sniffing', () => {
  const text = [
    'id,age,city,signup,churned,notes',
    '1,34,Paris,2024-01-02,yes,"likes, commas"',
    '2,,Lyon,2024-02-03,no,quiet',
    '3,51,Paris,2024-03-04,no,"said ""hi"""',
    '4,29,Nice,2024-04-05,yes,new',
  ].join('\n');

  it('infers kinds, distinct values, missing cells and samples', () => {
    const { columns, rowsSampled } = sniffCsv(text);
    assert.equal(rowsSampled, 4);
    const byName = Object.fromEntries(columns.map((c) => [c.name, c]));
    assert.equal(byName.age.kind, 'number');
    assert.equal(byName.age.missing, 1);
    assert.equal(byName.city.kind, 'category');
    assert.equal(byName.city.distinct, 3);
    assert.equal(byName.signup.kind, 'date');
    assert.equal(byName.churned.kind, 'binary');
    assert.deepEqual(byName.churned.samples, ['yes', 'no']);
    assert.deepEqual(byName.notes.samples, ['likes, commas', 'quiet', 'said "hi"']);
  });

  it('puts a binary column with a target-like name first and suggests a classifier', () => {
    const { columns } = sniffCsv(text);
    const ranked = rankTargets(columns);
    assert.equal(ranked[0].name, 'churned');
    assert.equal(suggestModelType(ranked[0]), 'classifier');
    assert.deepEqual(modelTypesFor(columns.find((c) => c.name === 'city')!), ['classifier'], 'a 3-value category is a multiclass target');
    assert.deepEqual(modelTypesFor(columns.find((c) => c.name === 'signup')!), [], 'a date is not a target');
  });

  it('offers both model types for a 0/1 column and a regressor for numbers', () => {
    const { columns } = sniffCsv('x,flag,price\n1,0,10.5\n2,1,11\n3,0,12.25\n4,1,9\n');
    assert.deepEqual(modelTypesFor(columns[1]), ['classifier', 'regressor']);
    assert.equal(suggestModelType(columns[2]), 'regressor');
  });

  it('sniffs the bundled datasets: penguins body mass is numeric, Sex is not binary because of "."', () => {
    const { columns } = sniffCsv(dataset('penguins.csv'));
    const byName = Object.fromEntries(columns.map((c) => [c.name, c]));
    assert.equal(byName['Body Mass (g)'].kind, 'number');
    assert.equal(byName.Species.kind, 'category');
    assert.equal(byName.Sex.distinct, 3);
    assert.equal(rankTargets(columns)[0].name, 'Species', 'a multiclass target with a target-like name comes first');
    assert.deepEqual(byName.Species.classes, ['Adelie', 'Chinstrap', 'Gentoo']);
    assert.deepEqual(modelTypesFor(byName.Species), ['classifier']);
    assert.equal(classifierLabel(byName.Species), 'Classifier (3 classes: Adelie, Chinstrap, Gentoo)');
    assert.equal(classifierLabel(undefined), 'Binary classifier');
  });

  it('ranks categories with few classes after binary columns and before numbers, and refuses over 50 categories', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${i % 2},k${i % 4},${i * 1.5},c${i % 60}`);
    const { columns } = sniffCsv(['flag,kind,amount,many', ...rows].join('\n'));
    assert.deepEqual(
      rankTargets(columns).map((c) => c.name),
      ['flag', 'kind', 'amount', 'many'],
    );
    assert.equal(columns[3].classes, undefined);
    assert.deepEqual(modelTypesFor(columns[3]), []);
  });

  it('ticks identifiers and free text for dropping and offers low-cardinality partition columns', () => {
    const { columns } = sniffCsv(dataset('cars.csv'));
    assert.deepEqual(suggestDropColumns(columns), ['Name']);
    assert.deepEqual(partitionCandidates(columns, 'Miles_per_Gallon').map((c) => c.name), ['Origin']);
    assert.deepEqual(partitionCandidates(columns, 'Origin'), [], 'the target is never a partition column');
  });

  it('stops after maxRows and fails on an empty file', () => {
    assert.equal(sniffCsv('a\n1\n2\n3\n4\n', 2).rowsSampled, 2);
    assert.throws(() => sniffCsv(''), /no header/);
  });
});

describe('CSV column sniffing of files as users save them', () => {
  it('splits semicolon- and tab-delimited files into their columns', () => {
    for (const delimiter of [';', '\t']) {
      const { columns } = sniffCsv(['age', 'city', 'churned'].join(delimiter) + '\n' + ['34', 'Paris', '1'].join(delimiter) + '\n' + ['51', 'Lyon', '0'].join(delimiter) + '\n');
      assert.deepEqual(
        columns.map((c) => c.name),
        ['age', 'city', 'churned'],
      );
    }
  });

  it('decodes Windows-1252 bytes and drops the row cut at the end of a byte sample', () => {
    const bytes = Uint8Array.from('name;n\ncaf\xe9;1\nth\xe9;2\ncut;', (ch) => ch.charCodeAt(0));
    const { columns, rowsSampled } = sniffCsv(bytes);
    assert.equal(rowsSampled, 2);
    assert.deepEqual(columns[0].samples, ['café', 'thé']);
  });
});
