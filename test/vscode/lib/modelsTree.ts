// The Models view of the workbench, driven as a user does: rows found by label, versions reached with the keyboard.
import type { Locator } from 'playwright-core';
import type { Workbench } from './workbench';

const timeout = 60_000;

export function treeRow(workbench: Workbench, label: string | RegExp): Locator {
  return workbench.treeRows().filter({ has: workbench.page.locator('.label-name', { hasText: label }) }).first();
}

/** The focused row of the Models tree. */
function focusedRow(workbench: Workbench): Locator {
  return workbench.treeRows().and(workbench.page.locator('.focused'));
}

/** From the focused row, expands with the keyboard and moves to its first child until a row of `level` has focus. */
export async function enterChild(workbench: Workbench, level: number): Promise<Locator> {
  const focused = focusedRow(workbench);
  for (let attempt = 0; attempt < 40; attempt++) {
    if ((await focused.getAttribute('aria-level')) === String(level)) return focused;
    await workbench.page.keyboard.press('ArrowRight');
    await workbench.page.waitForTimeout(250);
  }
  throw new Error(`No row of level ${level} got the focus in the Models view`);
}

/** Focuses a model's newest version row (its first child) and returns it. */
export async function versionRow(workbench: Workbench, model: string): Promise<Locator> {
  await workbench.openXModelsView();
  const row = treeRow(workbench, model);
  await row.waitFor({ timeout });
  await row.click({ button: 'right' });
  await workbench.page.keyboard.press('Escape');
  await workbench.page.mouse.move(700, 5);
  return enterChild(workbench, 2);
}
