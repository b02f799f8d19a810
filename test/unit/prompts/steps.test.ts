import assert from 'node:assert/strict';
import { BACK } from '../../../src/prompts/prompter';
import {
  applyAnswer, DONE, runSteps, sequence, stepPosition, type Outcome, type SequenceStep, type Step,
} from '../../../src/prompts/steps';

describe('multi-step prompts: Back navigation', () => {
  it('numbers steps from 1 and offers Back after the first', () => {
    assert.deepEqual(stepPosition('T', 1, 4), { title: 'T', step: 1, totalSteps: 4, canGoBack: false });
    assert.deepEqual(stepPosition('T', 4, 4), { title: 'T', step: 4, totalSteps: 4, canGoBack: true });
  });

  it('maps answers to outcomes and stores only real values', () => {
    const stored: number[] = [];
    assert.equal(applyAnswer<number>(BACK, (v) => stored.push(v)), BACK);
    assert.equal(applyAnswer<number>(undefined, (v) => stored.push(v)), undefined);
    assert.equal(applyAnswer<number>(0, (v) => stored.push(v)), 'next');
    assert.deepEqual(stored, [0]);
  });

  function scripted(outcomes: Record<string, Outcome[]>, visits: string[]): SequenceStep[] {
    return Object.keys(outcomes).map((id) => async (position) => {
      visits.push(`${id}@${position.step}/${position.totalSteps}`);
      if (!outcomes[id].length) throw new Error(`step ${id} ran more often than scripted`);
      return outcomes[id].shift();
    });
  }

  it('replays earlier steps after Back and finishes when the last step is answered', async () => {
    const visits: string[] = [];
    const steps = scripted({ a: ['next', 'next'], b: ['next', BACK, 'next'], c: [BACK, 'next'] }, visits);
    assert.equal(await runSteps(sequence('T', steps)), true);
    assert.deepEqual(visits, ['a@1/3', 'b@2/3', 'c@3/3', 'b@2/3', 'a@1/3', 'b@2/3', 'c@3/3']);
  });

  it('goes back one step and never before the first', async () => {
    const visits: string[] = [];
    const steps = scripted({ a: [BACK, 'next'], b: ['next'] }, visits);
    assert.equal(await runSteps(sequence('T', steps)), true);
    assert.deepEqual(visits, ['a@1/2', 'a@1/2', 'b@2/2']);
  });

  it('stops at the step that was dismissed', async () => {
    const visits: string[] = [];
    const steps = scripted({ a: ['next'], b: [undefined], c: [] }, visits);
    assert.equal(await runSteps(sequence('T', steps)), false);
    assert.deepEqual(visits, ['a@1/3', 'b@2/3']);
  });

  it('follows the steps a step chooses and returns along the path taken', async () => {
    const visits: string[] = [];
    let backOnce = true;
    const end: Step = async () => {
      visits.push('end');
      if (backOnce) {
        backOnce = false;
        return BACK;
      }
      return DONE;
    };
    const branch: Step = async () => {
      visits.push('branch');
      return end;
    };
    const start: Step = async () => {
      visits.push('start');
      return branch;
    };
    assert.equal(await runSteps(start), true);
    assert.deepEqual(visits, ['start', 'branch', 'end', 'branch', 'end']);
  });
});
