// Types of the undici modules imported one by one (src/client/undici.ts); undici types only its main entry.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentModule: typeof Agent;
  export default AgentModule;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import type { ProxyAgent } from 'undici';
  const ProxyAgentModule: typeof ProxyAgent;
  export default ProxyAgentModule;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';
  const DispatcherModule: typeof Dispatcher;
  export default DispatcherModule;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const requestApi: Dispatcher['request'];
  export default requestApi;
}
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  const connectApi: Dispatcher['connect'];
  export default connectApi;
}
