import assert from 'node:assert/strict';
import { BACK } from '../../../src/wizard/prompter';
import {
  applyAnswer, nextTransition, runWizard, stepPosition, type StepOutcome, type WizardStep,
} from '../../../src/wizard/wizardFlow';

describe('wizard flow: Back navigation state machine', () => {
  it('moves forward, ends after the last step and cancels on dismissal', () => {
    assert.deepEqual(nextTransition(0, 'next', 3), { kind: 'step', index: 1 });
    assert.deepEqual(nextTransition(2, 'next', 3), { kind: 'done' });
    assert.deepEqual(nextTransition(1, 'cancel', 3), { kind: 'cancelled' });
  });

  it('goes back one step and never before the first', () => {
    assert.deepEqual(nextTransition(2, 'back', 3), { kind: 'step', index: 1 });
    assert.deepEqual(nextTransition(0, 'back', 3), { kind: 'step', index: 0 });
  });

  it('numbers steps from 1 and offers Back after the first', () => {
    assert.deepEqual(stepPosition('T', 0, 4), { title: 'T', step: 1, totalSteps: 4, canGoBack: false });
    assert.deepEqual(stepPosition('T', 3, 4), { title: 'T', step: 4, totalSteps: 4, canGoBack: true });
  });

  it('maps answers to outcomes and stores only real values', () => {
    const stored: number[] = [];
    assert.equal(applyAnswer<number>(BACK, (v) => stored.push(v)), 'back');
    assert.equal(applyAnswer<number>(undefined, (v) => stored.push(v)), 'cancel');
    assert.equal(applyAnswer<number>(0, (v) => stored.push(v)), 'next');
    assert.deepEqual(stored, [0]);
  });

  function scripted(outcomes: Record<string, StepOutcome[]>, visits: string[]): WizardStep<object>[] {
    return Object.keys(outcomes).map((id) => ({
      id,
      async run(_state, position) {
        visits.push(`${id}@${position.step}/${position.totalSteps}`);
        const outcome = outcomes[id].shift();
        if (!outcome) throw new Error(`step ${id} ran more often than scripted`);
        return outcome;
      },
    }));
  }

  it('replays earlier steps after Back and finishes when the last step is answered', async () => {
    const visits: string[] = [];
    const steps = scripted({ a: ['next', 'next'], b: ['next', 'back', 'next'], c: ['back', 'next'] }, visits);
    assert.equal(await runWizard('T', steps, {}), true);
    assert.deepEqual(visits, ['a@1/3', 'b@2/3', 'c@3/3', 'b@2/3', 'a@1/3', 'b@2/3', 'c@3/3']);
  });

  it('stops at the step that was dismissed', async () => {
    const visits: string[] = [];
    const steps = scripted({ a: ['next'], b: ['cancel'], c: [] }, visits);
    assert.equal(await runWizard('T', steps, {}), false);
    assert.deepEqual(visits, ['a@1/3', 'b@2/3']);
  });
});
