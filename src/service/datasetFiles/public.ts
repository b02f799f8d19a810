import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PublicDataset } from '../../contract';
import { checkCsvShape, findUp } from './files';
import type { IngestOutcome } from './frameFile';

/** What the bundled files are and which column makes a good first target. */
const CATALOG: Record<string, { description: string; suggested_target: string }> = {
  penguins: { description: 'Palmer penguins: species, island, beak and flipper measures, body mass and sex.', suggested_target: 'Body Mass (g)' },
  cars: { description: 'Classic 1970-82 car models: fuel economy, engine, weight and origin.', suggested_target: 'Miles_per_Gallon' },
  movies: { description: 'Films with grosses, budgets, ratings and genres.', suggested_target: 'IMDB Rating' },
  'seattle-weather': { description: 'Daily Seattle weather 2012-2015.', suggested_target: 'temp_max' },
  weather: { description: 'Daily weather for Seattle and New York 2012-2015.', suggested_target: 'location' },
  'flights-20k': { description: 'US domestic flights: date, delay, distance, origin and destination.', suggested_target: 'delay' },
};

export interface PublicDatasetFile extends PublicDataset {
  path: string;
}

/** The CSV files shipped in media/datasets (found next to the bundle or the sources). */
export class PublicDatasets {
  private cache: PublicDatasetFile[] | null = null;
  private readonly dir: string | null;

  /**
   * Looks beside the bundle (dist/../media/datasets) first, then from the working directory; `inspect` reads a file's
   * header and rows (on the worker pool in the service).
   */
  constructor(
    private readonly inspect: (path: string) => Promise<IngestOutcome>,
    searchFrom: string[] = [__dirname, process.cwd()],
  ) {
    this.dir = searchFrom.map((start) => findUp(start, join('media', 'datasets'))).find((d) => d !== null) ?? null;
  }

  async list(): Promise<PublicDatasetFile[]> {
    if (this.cache) return this.cache;
    const dir = this.dir;
    if (!dir || !existsSync(dir)) return (this.cache = []);
    const files = readdirSync(dir).filter((f) => f.endsWith('.csv') && statSync(join(dir, f)).isFile()).sort();
    this.cache = await Promise.all(
      files.map(async (file) => {
        const name = basename(file, '.csv');
        const path = join(dir, file);
        const shape = await this.inspect(path);
        checkCsvShape(file, shape.header, shape.rows);
        const known = CATALOG[name];
        return {
          name,
          description: known?.description ?? `Sample dataset ${file}.`,
          rows: shape.rows,
          columns: shape.columns,
          suggested_target: known && shape.columns.includes(known.suggested_target) ? known.suggested_target : null,
          path,
        };
      }),
    );
    return this.cache;
  }

  /** Finds a dataset by name, with or without the .csv extension, ignoring case. */
  async find(name: string): Promise<PublicDatasetFile | null> {
    const wanted = name.trim().toLowerCase().replace(/\.csv$/, '');
    return (await this.list()).find((d) => d.name.toLowerCase() === wanted) ?? null;
  }
}
