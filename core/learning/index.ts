// Filled in by the learning module; see the files beside this index.
export {};
