import {
  BACK, type Answer, type ConfirmRequest, type InputRequest, type PickItem, type PickRequest, type PromptPosition, type Prompter,
} from '../../../src/prompts/prompter';

/** How a scripted prompt is answered: `accept` takes the default (active row, pre-selected rows, pre-filled text). */
export type ScriptedReply =
  | 'accept'
  | 'back'
  | 'cancel'
  | { readonly pick: string | readonly string[] }
  | { readonly text: string }
  | { readonly file: string }
  | { readonly confirm: boolean };

export interface ScriptedAnswer {
  readonly id: string;
  readonly reply: ScriptedReply;
}

/** What a prompt showed, for assertions. */
export interface PromptRecord {
  readonly id: string;
  readonly position: PromptPosition;
  readonly labels: readonly string[];
  readonly picked: readonly string[];
  /** Each row's description, in `labels` order ('' for none). */
  readonly descriptions: readonly string[];
  readonly placeholder?: string;
  readonly value?: string;
  readonly validation?: string;
}

/** Answers prompts from a queue, in order, and fails loudly when the flow asks something unexpected. */
export class ScriptedPrompter implements Prompter {
  readonly prompts: PromptRecord[] = [];
  private readonly queue: ScriptedAnswer[];

  constructor(answers: readonly ScriptedAnswer[]) {
    this.queue = [...answers];
  }

  get remaining(): number {
    return this.queue.length;
  }

  async pickOne<T>(request: PickRequest<T>): Promise<Answer<T>> {
    const items = (await request.items).filter((item) => !item.separator);
    const reply = this.take(request.id, request.position, items, undefined, request.placeholder);
    if (reply === 'back' || reply === 'cancel') return this.control(reply);
    if (reply === 'accept') return (items.find((item) => item.picked) ?? items[0])?.value;
    return this.find(items, 'pick' in reply ? reply.pick : undefined, request.id)[0].value;
  }

  async pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>> {
    const items = (await request.items).filter((item) => !item.separator);
    const reply = this.take(request.id, request.position, items, undefined, request.placeholder);
    if (reply === 'back' || reply === 'cancel') return this.control(reply);
    if (reply === 'accept') return items.filter((item) => item.picked).map((item) => item.value);
    return this.find(items, 'pick' in reply ? reply.pick : undefined, request.id).map((item) => item.value);
  }

  async input(request: InputRequest): Promise<Answer<string>> {
    const reply = this.take(request.id, request.position, [], request.value);
    if (reply === 'back' || reply === 'cancel') return this.control(reply);
    const text = reply === 'accept' ? request.value : 'text' in reply ? reply.text : undefined;
    if (text === undefined) throw new Error(`Prompt ${request.id} is an input box; answer it with {text} or accept.`);
    const validation = request.validate?.(text) ?? (await request.check?.(text));
    if (validation !== undefined) {
      const record = this.prompts[this.prompts.length - 1];
      this.prompts[this.prompts.length - 1] = { ...record, validation };
      throw new Error(`Prompt ${request.id} rejected ${JSON.stringify(text)}: ${validation}`);
    }
    return text;
  }

  async pickCsvFile(title: string): Promise<string | undefined> {
    const reply = this.take('file', { title, canGoBack: false }, []);
    if (typeof reply === 'object' && 'file' in reply) return reply.file;
    if (reply === 'cancel') return undefined;
    throw new Error('The file prompt takes {file} or cancel.');
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    const reply = this.take(request.id, { title: request.message, canGoBack: false }, []);
    if (typeof reply === 'object' && 'confirm' in reply) return reply.confirm;
    if (reply === 'cancel') return false;
    throw new Error('The confirmation takes {confirm} or cancel.');
  }

  private take(id: string, position: PromptPosition, items: readonly PickItem<unknown>[], value?: string, placeholder?: string): ScriptedReply {
    this.prompts.push({
      id, position, value, placeholder,
      labels: items.map((item) => item.label),
      descriptions: items.map((item) => item.description ?? ''),
      picked: items.filter((item) => item.picked).map((item) => item.label),
    });
    const next = this.queue.shift();
    if (!next) throw new Error(`Unexpected prompt ${id}: the script has no answers left.`);
    if (next.id !== id) throw new Error(`Expected prompt ${next.id} but the flow asked ${id}.`);
    return next.reply;
  }

  private control(reply: 'back' | 'cancel'): typeof BACK | undefined {
    return reply === 'back' ? BACK : undefined;
  }

  private find<T>(items: readonly PickItem<T>[], wanted: string | readonly string[] | undefined, id: string): PickItem<T>[] {
    const labels = typeof wanted === 'string' ? [wanted] : (wanted ?? []);
    return labels.map((label) => {
      const item = items.find((candidate) => candidate.label === label);
      if (!item) throw new Error(`Prompt ${id} has no row "${label}" (rows: ${items.map((i) => i.label).join(', ')}).`);
      return item;
    });
  }
}
