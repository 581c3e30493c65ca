import { BinaryPayloadConverter, CompositePayloadConverter, JsonPayloadConverter, UndefinedPayloadConverter, type Payload } from '@temporalio/common';
import { decode } from '@temporalio/common/lib/encoding';
import { quoteNonFiniteNumbers } from '../core/non-finite-json';

/**
 * JSON as every SDK writes it: a payload holding `NaN`/`Infinity` (Python's json.dumps
 * does) decodes, with those values as strings, so the contract check that follows fails
 * the evaluation batch naming the case — instead of the workflow task failing on a parse
 * error and retrying forever.
 */
class NonFiniteTolerantJsonPayloadConverter extends JsonPayloadConverter {
  override fromPayload<T>(payload: Payload): T {
    try {
      return super.fromPayload(payload);
    } catch (e) {
      if (payload.data === undefined || payload.data === null) throw e;
      const text = decode(payload.data);
      const quoted = quoteNonFiniteNumbers(text);
      if (quoted === text) throw e;
      return JSON.parse(quoted) as T;
    }
  }
}

/** The payload converter of the main worker and its workflow bundle (see workers/worker.ts). */
export const payloadConverter = new CompositePayloadConverter(new UndefinedPayloadConverter(), new BinaryPayloadConverter(), new NonFiniteTolerantJsonPayloadConverter());
