/** A refusal the caller can act on; the status is what the API answers with. */
export class AccountError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

/** Too many guesses: answered 429 with Retry-After, in whole seconds. */
export class TooManyAttemptsError extends AccountError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 429);
  }
}
