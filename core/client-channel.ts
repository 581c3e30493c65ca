/**
 * grpc-js, under `Connection`, waits longer and longer between attempts to reach a server that
 * is down (1 s, growing by 1.6x, up to 120 s): after an outage of a minute, a client could wait
 * another half minute after the server is back before it tried again, longer than its calls'
 * retries last, so a call made just after the server returned failed with UNAVAILABLE. Capped
 * at 3 s, a client finds the server within seconds of its return; an attempt costs the server
 * a TCP handshake. (A worker's native connection reconnects by itself.)
 * For `Connection.connect({ ..., channelArgs: CLIENT_CHANNEL_ARGS })`.
 */
export const CLIENT_CHANNEL_ARGS: Readonly<Record<string, number>> = Object.freeze({ 'grpc.max_reconnect_backoff_ms': 3_000 });
