// Filled in by the gepa module; see the files beside this index.
export {};
