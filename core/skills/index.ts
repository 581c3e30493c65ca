// Filled in by the skills module; see the files beside this index.
export {};
