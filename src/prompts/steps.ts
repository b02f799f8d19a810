import { BACK, type Answer, type Back, type PromptPosition } from './prompter';

/** The flow is complete: no step follows. */
export const DONE = 'done' as const;

/**
 * One step of a multi-step flow: asks its prompts and resolves to the step to run next, `DONE`, `BACK` (run the
 * previous step again) or `undefined` (the user dismissed a prompt).
 */
export type Step = () => Promise<Step | typeof DONE | Back | undefined>;

/** Runs steps from `first`; Back re-runs the previous step and never leaves the first. Resolves false when dismissed. */
export async function runSteps(first: Step): Promise<boolean> {
  const done: Step[] = [];
  let current = first;
  for (;;) {
    const next = await current();
    if (next === undefined) return false;
    if (next === DONE) return true;
    if (next === BACK) {
      current = done.pop() ?? current;
      continue;
    }
    done.push(current);
    current = next;
  }
}

export function stepPosition(title: string, step: number, totalSteps: number): PromptPosition {
  return { title, step, totalSteps, canGoBack: step > 1 };
}

/** What a step of a fixed sequence ended with. */
export type Outcome = 'next' | Back | undefined;

/** Maps a prompt's answer to a step outcome, storing the value when there is one. */
export function applyAnswer<T>(answer: Answer<T>, store: (value: T) => void): Outcome {
  if (answer === undefined) return undefined;
  if (answer === BACK) return BACK;
  store(answer);
  return 'next';
}

/** A step of a fixed sequence; it learns its place from `position`. */
export type SequenceStep = (position: PromptPosition) => Promise<Outcome>;

/** Steps in a fixed order, numbered 1 to n under one title, as the first step of `runSteps`. */
export function sequence(title: string, steps: readonly SequenceStep[]): Step {
  const at = (index: number): Step => async () => {
    const outcome = await steps[index](stepPosition(title, index + 1, steps.length));
    if (outcome !== 'next') return outcome;
    return index + 1 < steps.length ? at(index + 1) : DONE;
  };
  return at(0);
}
