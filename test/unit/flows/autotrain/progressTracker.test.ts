import assert from 'node:assert/strict';
import { ProgressTracker } from '../../../../src/flows/autotrain/progressTracker';

describe('wizard progress tracker', () => {
  it('reports the increase since the last status with the current step', () => {
    const tracker = new ProgressTracker();
    assert.deepEqual(tracker.next({ progress: 10, current_step: 'Preprocessing', status: 'running' }), { increment: 10, message: 'Preprocessing' });
    assert.deepEqual(tracker.next({ progress: 35, current_step: 'Training', status: 'running' }), { increment: 25, message: 'Training' });
    assert.equal(tracker.total, 35);
  });

  it('never reports a negative increment and never exceeds 100 in total', () => {
    const tracker = new ProgressTracker();
    tracker.next({ progress: 60, current_step: 'Search', status: 'running' });
    assert.equal(tracker.next({ progress: 40, current_step: 'Search', status: 'running' }).increment, 0);
    assert.equal(tracker.next({ progress: 100, current_step: 'Done', status: 'completed' }).increment, 40);
    assert.equal(tracker.next({ progress: 100, current_step: 'Done', status: 'completed' }).increment, 0);
    assert.equal(tracker.total, 100);
  });

  it('falls back to the state when the step is empty and ignores a non-finite progress', () => {
    const tracker = new ProgressTracker();
    assert.deepEqual(tracker.next({ progress: Number.NaN, current_step: '', status: 'pending' }), { increment: 0, message: 'pending' });
  });
});
