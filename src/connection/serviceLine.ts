import * as z from 'zod';

/** The one JSON line the service CLI prints on stdout once it listens. */
export const ServiceLineSchema = z.object({
  url: z.string().url(),
  api_key: z.string().min(1),
  team_id: z.string().min(1),
});
export type ServiceLine = z.infer<typeof ServiceLineSchema>;

/** Collects stdout chunks and yields complete lines (the line may arrive in several chunks). */
export class LineSplitter {
  private buffer = '';

  push(chunk: string): string[] {
    this.buffer += chunk;
    const lines = this.buffer.split(/\r?\n/);
    this.buffer = lines.pop() ?? '';
    return lines.filter((line) => line.trim() !== '');
  }
}

/** The service's address and key from a stdout line, or undefined for any other line. */
export function parseServiceLine(line: string): ServiceLine | undefined {
  try {
    const parsed = ServiceLineSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
