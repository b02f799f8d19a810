import { BACK, type Answer, type PromptPosition } from './prompter';

/** What a step's prompt ended with. */
export type StepOutcome = 'next' | 'back' | 'cancel';

/** One prompt of a multi-step flow: asks, and on an answer stores it in the flow's state. */
export interface WizardStep<S> {
  readonly id: string;
  run(state: S, position: PromptPosition): Promise<StepOutcome>;
}

/** Where the flow goes after a step: another step, the end, or nowhere (cancelled). */
export type Transition = { readonly kind: 'step'; readonly index: number } | { readonly kind: 'done' } | { readonly kind: 'cancelled' };

/** The Back-navigation state machine: Back never leaves the first step, Next after the last ends the flow. */
export function nextTransition(index: number, outcome: StepOutcome, totalSteps: number): Transition {
  if (outcome === 'cancel') return { kind: 'cancelled' };
  if (outcome === 'back') return { kind: 'step', index: Math.max(0, index - 1) };
  return index + 1 >= totalSteps ? { kind: 'done' } : { kind: 'step', index: index + 1 };
}

export function stepPosition(title: string, index: number, totalSteps: number): PromptPosition {
  return { title, step: index + 1, totalSteps, canGoBack: index > 0 };
}

/** Runs the steps in order with Back support; resolves true when the last step was answered, false on cancel. */
export async function runWizard<S>(title: string, steps: readonly WizardStep<S>[], state: S): Promise<boolean> {
  let index = 0;
  for (;;) {
    const outcome = await steps[index].run(state, stepPosition(title, index, steps.length));
    const transition = nextTransition(index, outcome, steps.length);
    if (transition.kind === 'done') return true;
    if (transition.kind === 'cancelled') return false;
    index = transition.index;
  }
}

/** Maps a prompt's answer to a step outcome, storing the value when there is one. */
export function applyAnswer<T>(answer: Answer<T>, store: (value: T) => void): StepOutcome {
  if (answer === undefined) return 'cancel';
  if (answer === BACK) return 'back';
  store(answer);
  return 'next';
}
