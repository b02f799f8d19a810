/** Theme colours from VS Code's `--vscode-*` variables, and notification when the theme changes. */
export interface Palette {
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  fontFamily: string;
  fontSize: number;
  /** Distinct series colours (the theme's chart colours). */
  series: string[];
  positive: string;
  negative: string;
}

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value || fallback;
}

export function readPalette(): Palette {
  return {
    foreground: cssVar('--vscode-foreground', '#cccccc'),
    muted: cssVar('--vscode-descriptionForeground', '#999999'),
    grid: cssVar('--vscode-editorWidget-border', cssVar('--vscode-panel-border', '#80808040')),
    background: cssVar('--vscode-editor-background', '#1e1e1e'),
    fontFamily: cssVar('--vscode-font-family', 'sans-serif'),
    fontSize: Number.parseFloat(cssVar('--vscode-font-size', '13')) || 13,
    series: [
      cssVar('--vscode-charts-blue', '#3794ff'),
      cssVar('--vscode-charts-orange', '#d18616'),
      cssVar('--vscode-charts-green', '#89d185'),
      cssVar('--vscode-charts-purple', '#b180d7'),
      cssVar('--vscode-charts-red', '#f14c4c'),
      cssVar('--vscode-charts-yellow', '#cca700'),
    ],
    positive: cssVar('--vscode-charts-green', '#89d185'),
    negative: cssVar('--vscode-charts-red', '#f14c4c'),
  };
}

/** Calls `listener` whenever VS Code switches theme (it changes the body's theme class). */
export function onThemeChange(listener: () => void): void {
  let current = document.body.className;
  new MutationObserver(() => {
    if (document.body.className === current) return;
    current = document.body.className;
    listener();
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** A colour with an alpha channel, for fills under lines and bars (accepts #rgb, #rrggbb and #rrggbbaa). */
export function withAlpha(color: string, alpha: number): string {
  const hex = color.trim().replace('#', '');
  if (!/^[0-9a-f]+$/i.test(hex) || ![3, 6, 8].includes(hex.length)) return color;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6);
  const a = Math.round(Math.min(1, Math.max(0, alpha)) * 255).toString(16).padStart(2, '0');
  return `#${full}${a}`;
}
