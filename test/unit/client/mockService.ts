import { MockAgent, type MockPool } from 'undici';
import { XModelsClient, type XModelsClientOptions } from '../../../src/client';

export const ORIGIN = 'http://svc.test';
export const API_KEY = 'xk-secret-key-4f9d';

export interface MockService {
  client: XModelsClient;
  agent: MockAgent;
  pool: MockPool;
  /** Requests the client sent, oldest first. */
  calls(): { method: string; path: string; headers: Record<string, string>; body: string | null }[];
}

/** A client wired to undici's MockAgent: no sockets, and every request is recorded. */
export function mockService(options: Partial<XModelsClientOptions> = {}): MockService {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const client = new XModelsClient({
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    dispatcher: agent,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
  const base = new URL(options.baseUrl ?? ORIGIN).origin;
  return {
    client,
    agent,
    pool: agent.get(base),
    calls: () =>
      (agent.getCallHistory()?.calls() ?? []).map((c) => ({
        method: c.method,
        path: c.path,
        headers: c.headers as Record<string, string>,
        body: typeof c.body === 'string' ? c.body : c.body == null ? null : String(c.body),
      })),
  };
}

export const json = { headers: { 'content-type': 'application/json' } };

export const connectInfo = {
  username: 'ada',
  team_id: 'team-1',
  team_name: 'Research',
  teams: [
    { team_id: 'team-1', team_name: 'Research' },
    { team_id: 'team-2', team_name: 'Ops' },
  ],
  expires: null,
};

export const modelInfo = {
  model_id: 'm-1',
  model_name: 'churn',
  model_description: '',
  model_type: 'binary_classification',
  target_name: 'churned',
  algorithm: 'XClassifier',
  partition_on: null,
  team_id: 'team-1',
  created: '2026-01-01T00:00:00Z',
  created_by: 'ada',
  number_of_versions: 1,
  latest_version_id: 'v-1',
  archived: false,
};

export function trainingStatus(status: string, extra: Record<string, unknown> = {}) {
  return {
    training_id: 't-1',
    status,
    progress: status === 'running' ? 50 : 0,
    current_step: status,
    elapsed_time: 1,
    estimated_remaining: 1,
    ...extra,
  };
}

export function summaryFixture() {
  return {
    dataset_id: 'd-1',
    name: 'churn',
    file_name: 'churn.csv',
    dataset_description: '',
    rows: 10,
    columns: ['age', 'churned'],
    dtypes: { age: 'number' as const, churned: 'category' as const },
    missing_values: { age: 0, churned: 0 },
    field_names: ['age', 'churned'],
    fields: [
      { column: 'age', properties: { dtype: 'number' as const, samples: [30], num_unique_values: 5, semantic_type: 'age', description: '' } },
      { column: 'churned', properties: { dtype: 'category' as const, samples: ['yes'], num_unique_values: 2, semantic_type: 'label', description: '' } },
    ],
  };
}
