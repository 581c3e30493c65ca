/**
 * Strict payload mode (EVOLUTION_PAYLOAD_STRICT, on when payload keys are set): the codec
 * marks every payload it decodes that it could not authenticate (not encrypted, or not under
 * a configured key) with this metadata key, and the workflow-side guard refuses marked
 * payloads where they would change a workflow: start inputs, signals and updates.
 */
export const UNAUTHENTICATED_PAYLOAD_MARK = 'evolution-unauthenticated';

/**
 * The encoding a refused update's input is given, so the SDK rejects the update (before it is
 * accepted) with "Unknown encoding: binary/refused-unencrypted-update".
 */
export const REFUSED_UPDATE_ENCODING = 'binary/refused-unencrypted-update';

/** The failure type of a workflow whose start input was not encrypted. */
export const UNENCRYPTED_INPUT_FAILURE = 'UnencryptedInput';
