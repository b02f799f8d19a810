/** Most classes a classifier target may have (one-vs-rest beyond two); shared by the engine, service and extension. */
export const MAX_CLASSES = 50;
