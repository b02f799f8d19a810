import { SVG_DATA_URI_PREFIX } from './markdown';

/** A chart of a Markdown report, as an SVG file of its own. */
export interface ImageFile {
  /** Its path relative to the Markdown file: `<folder>/figure-<n>.svg`. */
  path: string;
  svg: string;
}

const escapedPrefix = SVG_DATA_URI_PREFIX.replace(/[+/]/g, '\\$&');
/** An image whose description is Markdown text (any escaped character, no bare `]`) and whose source is an SVG data URI. */
const DATA_IMAGE = new RegExp(`!\\[((?:\\\\.|[^\\\\\\]])*)\\]\\(${escapedPrefix}([A-Za-z0-9+/=]*)\\)`, 'g');

function fromBase64(data: string): string {
  const binary = atob(data);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** A path segment as a link destination: percent-encoded, parentheses too, so no name ends the link. */
const linkSegment = (segment: string): string => encodeURIComponent(segment).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The Markdown with each chart written as a file beside it instead of a `data:` URI (many Markdown viewers show no
 * `data:` image): the images link to `<folder>/figure-<n>.svg`, and `images` holds what to write there.
 */
export function splitImages(markdown: string, folder: string): { markdown: string; images: ImageFile[] } {
  const images: ImageFile[] = [];
  const rewritten = markdown.replace(DATA_IMAGE, (_match, description: string, data: string) => {
    const name = `figure-${images.length + 1}.svg`;
    images.push({ path: `${folder}/${name}`, svg: fromBase64(data) });
    return `![${description}](${linkSegment(folder)}/${name})`;
  });
  return { markdown: rewritten, images };
}
