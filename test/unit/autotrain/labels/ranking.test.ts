import assert from 'node:assert/strict';
import { parseCsv } from '../../../../src/engine';
import { generateGoals, generateLabels, RULES_CONTEXT, summarizeDataset } from '../../../../src/autotrain';
import { canTrainTarget } from '../../../../src/autotrain/labels/labelRules';

/** A deterministic stand-in for a doctor-visits survey: a rare 0/1 health flag first, the visit count later. */
function healthCsv(rows = 400): string {
  const lines = ['freepoor,age,income,illness,visits'];
  for (let i = 0; i < rows; i++) {
    const illness = i % 5;
    lines.push(`${i % 67 === 0 ? 1 : 0},${20 + (i % 50)},${((i * 37) % 150) / 100},${illness},${(illness + (i % 3)) % 4}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A stand-in for bird strikes: the total cost is the sum of two cost columns; damage has four classes, mostly
 * "None" (as in the public data).
 */
function strikesCsv(rows = 300): string {
  const lines = ['Speed,Cost Repairs $,Cost Other $,Cost Total $,Damage,Height'];
  for (let i = 0; i < rows; i++) {
    const repairs = (i * 53) % 997;
    const other = i % 4 === 0 ? '' : String((i * 17) % 211);
    const total = repairs + (other === '' ? 0 : Number(other));
    const damage = i % 10 < 7 ? 'None' : ['Minor', 'Medium', 'Substantial'][i % 10 === 9 ? 2 : i % 3 === 0 ? 1 : 0];
    lines.push(`${100 + (i % 90)},${repairs},${other},${total},${damage},${(i * 7) % 2000}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A stand-in for the public bird-strike table: five damage levels, mostly "None" and one row "Destroyed"; repair and
 * other costs, non-zero mostly when there was damage; their total; the speed last, often missing.
 */
function birdStrikesCsv(rows = 600): string {
  const lines = ['Airport Name,Effect Amount of damage,Flight Date,Phase of flight,Wildlife Size,Cost Other,Cost Repair,Cost Total $,Speed IAS in knots'];
  for (let i = 0; i < rows; i++) {
    const level = i % 50;
    const damage = i === 17 ? 'Destroyed' : level < 43 ? 'None' : level < 46 ? 'Minor' : level < 48 ? 'Medium' : 'Substantial';
    const damaged = damage !== 'None';
    const repair = damaged && i % 3 !== 0 ? 1000 + ((i * 7919) % 90000) : 0;
    const other = (damaged && i % 2 === 0) || i % 97 === 0 ? (i * 131) % 20000 : 0;
    const speed = i % 5 < 2 ? '' : String(80 + ((i * 37) % 200));
    lines.push(
      `Airport ${(i * 13) % 80},${damage},2001-0${1 + (i % 9)}-1${i % 9},${['Approach', 'Climb', 'Landing Roll', 'Take-off run'][i % 4]},${['Small', 'Medium', 'Large'][(i * 7) % 3]},${other},${repair},${other + repair},${speed}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A stand-in for a doctor-visits survey: a row number, the visit count first, balanced yes/no health flags last. */
function doctorVisitsCsv(rows = 400): string {
  const lines = ['rownames,visits,gender,age,income,illness,reduced,health,private,nchronic,lchronic'];
  for (let i = 0; i < rows; i++) {
    const illness = i % 6;
    const flag = (k: number) => ((i * k) % 7 < 3 ? 'yes' : 'no');
    lines.push(`${i + 1},${(illness + (i % 4)) % 10},${i % 2 ? 'male' : 'female'},${(19 + (i % 50)) / 100},${((i * 37) % 150) / 100},${illness},${(i * 3) % 15},${(i * 5) % 13},${flag(3)},${flag(5)},${flag(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function ranked(csv: string, name: string, withRows = true) {
  const frame = parseCsv(csv);
  const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name, file_name: `${name}.csv` }, RULES_CONTEXT);
  return (await generateLabels(summary, RULES_CONTEXT, withRows ? frame : undefined)).labels;
}

describe('autotrain label ranking', () => {
  it('puts the outcome-like count first and demotes a binary flag with a rare class', async () => {
    const labels = await ranked(healthCsv(), 'health');
    assert.equal(labels[0].column, 'visits');
    const flag = labels.find((l) => l.column === 'freepoor');
    assert.ok(flag, 'the rare flag is still offered');
    assert.ok(flag.confidence < labels[0].confidence);
    assert.match(flag.reasoning, /rarer value is only 1\.5% of the rows/);
  });

  it('ranks a column that is the sum of two others last and says it leaks', async () => {
    const labels = await ranked(strikesCsv(), 'strikes');
    assert.notEqual(labels[0].column, 'Cost Total $');
    const total = labels.find((l) => l.column === 'Cost Total $');
    assert.match(total?.reasoning ?? '', /sum of 'Cost Repairs \$' and 'Cost Other \$'.*leak/);
    assert.ok(labels.every((l) => l.column === 'Cost Total $' || l.confidence > (total?.confidence ?? 1)));
  });

  it('proposes the four-class damage column first, as a classifier, with and without the rows', async () => {
    for (const withRows of [true, false]) {
      const labels = await ranked(strikesCsv(), 'strikes', withRows);
      assert.deepEqual([labels[0].column, labels[0].model_type], ['Damage', 'classifier']);
      assert.match(labels[0].reasoning, /multiclass classification into 4 classes.*target keyword 'damage'/);
      assert.ok(labels.every((l) => !/Not offered/.test(l.reasoning)));
    }
  });

  it('ranks a multiclass column with a class too rare to train lower, names the class and the rows training leaves out', async () => {
    const lines = ['Island,Beak,Mass,Sex'];
    for (let i = 0; i < 120; i++) lines.push(`${['Biscoe', 'Dream', 'Torgersen'][i % 3]},${40 + (i % 17)},${3000 + ((i * 37) % 900)},${i === 7 ? '.' : i % 2 ? 'MALE' : 'FEMALE'}`);
    const csv = `${lines.join('\n')}\n`;
    const labels = await ranked(csv, 'birds');
    const sex = labels[labels.length - 1];
    assert.equal(sex.column, 'Sex');
    assert.match(sex.reasoning, /class '\.' has 1 row \(\d among the training rows\), and every class needs at least 2 training rows: training it leaves out that row \(rare_classes "drop"\)/);
    assert.deepEqual(sex.rare_classes?.map((c) => [c.class, c.rows]), [['.', 1]]);
    assert.ok(labels.slice(0, -1).every((l) => l.confidence > sex.confidence && l.rare_classes === undefined));
    const island = labels.find((l) => l.column === 'Island');
    assert.match(island?.reasoning ?? '', /says where or who a row is \(location\)/);
    assert.equal(labels[0].column, 'Mass', 'a place is ranked below a measurement');
    const summaryOnly = await ranked(csv, 'birds', false);
    assert.ok(summaryOnly.every((l) => !/leaves out/.test(l.reasoning) && l.rare_classes === undefined), 'class counts need the rows');
  });

  it('proposes the damage class over the costs that follow it, on a bird-strike layout with a one-row class', async () => {
    for (const withRows of [true, false]) {
      const labels = await ranked(birdStrikesCsv(), 'strikes', withRows);
      assert.deepEqual([labels[0].column, labels[0].model_type], ['Effect Amount of damage', 'classifier'], `with rows: ${withRows}`);
      assert.match(labels[0].reasoning, /multiclass classification into 5 classes.*target keyword 'damage'/);
    }
    const labels = await ranked(birdStrikesCsv(), 'strikes');
    const damage = labels[0];
    assert.deepEqual(damage.rare_classes?.map((c) => c.class), ['Destroyed']);
    assert.match(damage.reasoning, /class 'Destroyed' has 1 row .*training it leaves out that row/);
    for (const cost of ['Cost Other', 'Cost Repair']) {
      const label = labels.find((l) => l.column === cost);
      assert.match(label?.reasoning ?? '', /consequence of an outcome.*non-zero mostly where 'Effect Amount of damage' is not 'None' \(\d+(\.\d)?% of its non-zero rows, against \d+(\.\d)?% of all rows\)/, cost);
      assert.ok((label?.confidence ?? 1) < damage.confidence - 0.1, cost);
    }
    assert.match(labels.find((l) => l.column === 'Cost Total $')?.reasoning ?? '', /sum of 'Cost Other' and 'Cost Repair'/);
  });

  it('keeps an amount that no outcome explains as a label: medical charges beside a smoker flag', async () => {
    const lines = ['age,sex,bmi,children,smoker,region,charges'];
    for (let i = 0; i < 300; i++) {
      const smoker = i % 5 === 0;
      const age = 18 + ((i * 7) % 46);
      lines.push(`${age},${i % 2 ? 'male' : 'female'},${20 + ((i * 13) % 200) / 10},${i % 4},${smoker ? 'yes' : 'no'},${['southwest', 'northeast'][i % 2]},${age * 250 + (smoker ? 23000 : 0) + ((i * 131) % 8000)}`);
    }
    const labels = await ranked(`${lines.join('\n')}\n`, 'insurance');
    assert.deepEqual([labels[0].column, labels[0].model_type], ['charges', 'regressor']);
    assert.ok(!/consequence/.test(labels[0].reasoning));
  });

  it('sees an amount named after an outcome as its consequence, without the rows', async () => {
    const lines = ['Speed,Damage Cost,Damage'];
    for (let i = 0; i < 60; i++) lines.push(`${100 + i},${i % 3 ? 0 : 500 + i},${['None', 'Minor', 'Substantial'][i % 3]}`);
    const labels = await ranked(`${lines.join('\n')}\n`, 'damage', false);
    assert.equal(labels[0].column, 'Damage');
    assert.match(labels.find((l) => l.column === 'Damage Cost')?.reasoning ?? '', /its name says it is the 'damage' that 'Damage' records/);
  });

  it('proposes a visit count over health flags as a count regression, and never a row number', async () => {
    const labels = await ranked(doctorVisitsCsv(), 'doctor-visits');
    assert.deepEqual([labels[0].column, labels[0].model_type], ['visits', 'regressor']);
    assert.match(labels[0].reasoning, /suits regression on a count \(regressor\)/);
    assert.ok(!labels.some((l) => l.column === 'rownames'), 'the row number is no label');
    const summaryOnly = await ranked(doctorVisitsCsv(), 'doctor-visits', false);
    assert.equal(summaryOnly[0].column, 'visits');
  });

  it('reads no target word into a coordinate y or a column that says who a row is', async () => {
    const lines = ['carat,x,y,z,marital status,price'];
    for (let i = 0; i < 80; i++) lines.push(`${(i % 20) / 10},${4 + (i % 7)},${4 + (i % 9)},${2 + (i % 5)},${['single', 'married', 'divorced'][i % 3]},${300 + i * 97}`);
    const labels = await ranked(`${lines.join('\n')}\n`, 'gems');
    assert.equal(labels[0].column, 'price');
    assert.ok(!/target keyword/.test(labels.find((l) => l.column === 'y')?.reasoning ?? ''));
    assert.ok(!/target keyword/.test(labels.find((l) => l.column === 'marital status')?.reasoning ?? ''));
  });

  it('ranks a category below a numeric column named for the same outcome', async () => {
    const lines = ['MPAA Rating,Budget,IMDB Rating'];
    for (let i = 0; i < 80; i++) lines.push(`${['G', 'PG', 'PG-13', 'R'][i % 4]},${(i * 13) % 97},${(4 + ((i * 7) % 50) / 10).toFixed(1)}`);
    const labels = await ranked(`${lines.join('\n')}\n`, 'films');
    assert.equal(labels[0].column, 'IMDB Rating');
    assert.match(labels.find((l) => l.column === 'MPAA Rating')?.reasoning ?? '', /'IMDB Rating' measures the same 'rating' as a number/);
  });

  it('finds a near-duplicate of another column', async () => {
    const lines = ['a,b,copy_of_a'];
    for (let i = 0; i < 100; i++) lines.push(`${i},${(i * 31) % 17},${i * 2.54 + (i % 2) * 0.01}`);
    const labels = await ranked(`${lines.join('\n')}\n`, 'dup');
    assert.match(labels.find((l) => l.column === 'copy_of_a')?.reasoning ?? '', /follows 'a' almost exactly/);
  });

  it('keeps the summary-only ranking (no rows) free of row evidence', async () => {
    const labels = await ranked(strikesCsv(), 'strikes', false);
    assert.ok(labels.every((l) => !/leak/.test(l.reasoning)));
  });

  it('asks one function whether a model type can train a target', () => {
    assert.deepEqual(canTrainTarget('classifier', 2), { ok: true });
    assert.deepEqual(canTrainTarget('regressor', 40), { ok: true });
    assert.deepEqual(canTrainTarget('classifier', 4), { ok: true });
    assert.deepEqual(canTrainTarget('classifier', 50), { ok: true });
    assert.deepEqual(canTrainTarget('classifier', 51), { ok: false, reason: 'it has 51 classes and a classifier takes at most 50' });
  });
});

describe('autotrain goals skip degenerate charts', () => {
  it('draws no histogram of a 0/1 column, no scatter of a column against its own sum, and keeps the target in the correlation view', async () => {
    const lines = ['flag,' + Array.from({ length: 11 }, (_, k) => `m${k}`).join(',') + ',part_a,part_b,total'];
    for (let i = 0; i < 200; i++) {
      const a = (i * 13) % 97;
      const b = (i * 7) % 89;
      lines.push(`${i % 9 === 0 ? 1 : 0},${Array.from({ length: 11 }, (_, k) => ((i + 3) * (k + 5) * 31) % (50 + k)).join(',')},${a},${b},${a + b}`);
    }
    const frame = parseCsv(`${lines.join('\n')}\n`);
    const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name: 'parts', file_name: 'parts.csv' }, RULES_CONTEXT);
    const { goals } = await generateGoals(summary, 30, RULES_CONTEXT, { frame });
    assert.ok(!goals.some((g) => g.visualization === 'histogram of flag'));
    assert.ok(goals.some((g) => g.visualization === 'bar chart of class balance of flag'), 'the 0/1 target is drawn as bars of its class shares');
    for (const g of goals.filter((x) => x.visualization.startsWith('scatter'))) {
      assert.ok(!(g.columns.includes('total') && (g.columns.includes('part_a') || g.columns.includes('part_b'))), g.visualization);
    }
    const target = (await generateLabels(summary, RULES_CONTEXT, frame)).labels[0].column;
    const heatmap = goals.find((g) => g.visualization.startsWith('heatmap of correlations'));
    assert.ok(heatmap?.columns.includes(target), `the target ${target} is in ${heatmap?.visualization}`);
  });
});
