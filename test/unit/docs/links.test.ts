import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(__dirname, '../../..');
const documents = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text GitHub renders, without fenced code blocks (a `#` there is a shell comment, a `[x](y)` code). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces made hyphens; repeats get -1, -2… */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const rendered = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** The relative links and images of a Markdown file, outside code. */
function relativeLinks(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('links between the README and the docs', () => {
  it('knows GitHub’s anchors: punctuation dropped, spaces made hyphens, repeated headings numbered', () => {
    const anchors = headingAnchors('# A `code` title: [linked](x.md)\n```sh\n# not a heading\n```\n## Copy to… (and ×)\n## Copy to… (and ×)\n### What’s new');
    assert.deepEqual([...anchors], ['a-code-title-linked', 'copy-to-and-', 'copy-to-and--1', 'whats-new']);
  });

  it('resolves every relative link and #anchor in README.md, CHANGELOG.md and docs/*.md', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const document of documents) {
      const file = join(root, document);
      for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
        checked++;
        const [path, anchor] = link.split('#');
        const target = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        if (!existsSync(target)) broken.push(`${document}: ${link} (no ${relative(root, target)})`);
        else if (anchor !== undefined && target.endsWith('.md') && !headingAnchors(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${document}: ${link} (no heading #${anchor} in ${relative(root, target)})`);
        }
      }
    }
    assert.ok(checked >= 50, `${checked} links checked`);
    assert.deepEqual(broken, []);
  });
});
