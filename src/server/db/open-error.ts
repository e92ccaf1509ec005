/** The data directory cannot be opened; the message is the one line start-up prints before it stops. */
export class DatabaseOpenError extends Error {}
