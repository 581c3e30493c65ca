// One definition, in core (pure), shared by the storage layer.
export { canonicalJson, sameJson } from '../core/canonical-json';
