/** Most classes a classifier target may have (one-vs-rest beyond two); shared by the engine, service and extension. */
export const MAX_CLASSES = 50;
/** Fewest training rows a class of a multiclass target may have. */
export const MIN_CLASS_ROWS = 2;
