import { removeDir, startService } from '../service/harness';

export interface LocalService {
  url: string;
  api_key: string;
  team_id: string;
  dataDir: string;
  /** Stops the service and removes its data dir. */
  stop(): Promise<void>;
}

/**
 * The real local service on 127.0.0.1 with a database in a fresh temp dir (built from the current sources by the
 * service tests' harness), described by the JSON line `serve` prints; `args` are extra `serve` flags.
 */
export async function startLocalService(args: string[] = []): Promise<LocalService> {
  const service = await startService({ args });
  return {
    url: service.url,
    api_key: service.apiKey,
    team_id: service.teamId,
    dataDir: service.dataDir,
    stop: async () => {
      await service.stop();
      removeDir(service.dataDir);
    },
  };
}

/** A deterministic churn-like table: a binary `churned` target that depends on tenure, plan and monthly spend. */
export function churnCsv(rows: number, seed = 7): string {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const plans = ['basic', 'plus', 'pro'];
  const lines = ['customer_id,tenure,plan,monthly,region,churned'];
  for (let i = 0; i < rows; i++) {
    const tenure = Math.floor(random() * 60);
    const plan = plans[Math.floor(random() * 3)];
    const monthly = Math.round((20 + random() * 80) * 100) / 100;
    const region = random() < 0.5 ? 'north' : 'south';
    const risk = (tenure < 12 ? 0.5 : 0.1) + (plan === 'basic' ? 0.2 : 0) + (monthly > 70 ? 0.15 : 0);
    lines.push(`c${i},${tenure},${plan},${monthly},${region},${random() < risk ? 'yes' : 'no'}`);
  }
  return lines.join('\n') + '\n';
}
