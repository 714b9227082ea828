/**
 * The one error type. `code` is stable (clients branch on it); `status` is the HTTP status of the
 * contract; `details` carries one entry per problem with its path.
 */
export interface ErrorDetail {
  msg: string;
  code: string | number;
  path?: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | number,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * Why a credential was refused, for the log and the metrics (never the client's answer, whose
   * message stays the contract's): e.g. `expired`, `bad_signature` (TOKEN_REFUSAL_REASONS in jwt.ts).
   */
  reason?: string;

  /** This error with the reason it was refused (see `reason`). */
  because(reason: string): this {
    this.reason = reason;
    return this;
  }

  /**
   * A 401 that names the credential it expected: the `WWW-Authenticate` challenge, and the
   * credential's place as the error entry's `path`; the message stays as it was. Any other error
   * is answered as it is.
   */
  expecting(credential: { challenge: string; path: string }): AppError {
    if (this.status !== 401) return this;
    const named = new AppError(
      401,
      this.code,
      this.message,
      [{ msg: this.message, code: this.code, path: credential.path }],
      {
        ...this.headers,
        'WWW-Authenticate': credential.challenge,
      },
    );
    return this.reason ? named.because(this.reason) : named;
  }

  /** The contract body: {"errors":[{msg, code, path?}]}. */
  toBody(): { errors: ErrorDetail[] } {
    return { errors: this.details.length ? this.details : [{ msg: this.message, code: this.code }] };
  }

  static validation(details: Array<{ msg: string; path?: string }>): AppError {
    return new AppError(
      400,
      'validation_error',
      'Validation errors/ Invalid arguments',
      details.map((d) => ({ msg: d.msg, code: 'validation_error', ...(d.path ? { path: d.path } : {}) })),
    );
  }
  /** 400: the request passes a configured limit; each message names the limit and its setting. */
  static limitExceeded(details: Array<{ msg: string; path?: string }>): AppError {
    return new AppError(
      400,
      'limit_exceeded',
      details.map((d) => d.msg).join('; '),
      details.map((d) => ({ msg: d.msg, code: 'limit_exceeded', ...(d.path ? { path: d.path } : {}) })),
    );
  }
  static badRequest(msg: string, path?: string): AppError {
    return new AppError(400, 'bad_request', msg, [{ msg, code: 'bad_request', ...(path ? { path } : {}) }]);
  }
  static unauthorized(msg = 'Invalid SDK credentials'): AppError {
    return new AppError(401, 4002, msg);
  }
  static invalidJwt(): AppError {
    return new AppError(401, 4002, 'Invalid JWT token');
  }
  static forbidden(msg = 'Permission denied. Scope is incorrect!'): AppError {
    return new AppError(403, 4002, msg);
  }
  static notFound(msg = 'Resource not found'): AppError {
    return new AppError(404, 'not_found', msg);
  }
  static methodNotAllowed(allowed: string[]): AppError {
    return new AppError(405, 'method_not_allowed', 'Method Not Allowed', [], { Allow: allowed.join(', ') });
  }
  static conflict(msg: string, path?: string): AppError {
    return new AppError(409, 'conflict', msg, [{ msg, code: 'conflict', ...(path ? { path } : {}) }]);
  }
  /** 413; `name` says which setting holds the limit (e.g. AGENT_MAX_BYTES). */
  static tooLarge(limit: string, name?: string): AppError {
    return new AppError(
      413,
      'payload_too_large',
      `Request body is larger than ${limit}${name ? ` (${name})` : ''}`,
    );
  }
  static unsupportedMediaType(allowed: string[]): AppError {
    return new AppError(
      415,
      'unsupported_media_type',
      `Unsupported Content-Type; use ${allowed.join(' or ')}`,
    );
  }
  static businessRule(msg: string, path?: string): AppError {
    return new AppError(422, 'business_rule', msg, [
      { msg, code: 'business_rule', ...(path ? { path } : {}) },
    ]);
  }
  static rateLimited(retryAfterS: number): AppError {
    return new AppError(
      429,
      'rate_limited',
      'Rate limit for this API has been reached. Please try again after some time.',
      [],
      {
        'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))),
      },
    );
  }
  static storeUnavailable(): AppError {
    return new AppError(503, 'store_unavailable', 'Service temporarily unavailable; try again shortly', [], {
      'Retry-After': '2',
    });
  }
  /** A bounded resource is full of live work (e.g. the memory store's calls); try again later. */
  static atCapacity(msg: string): AppError {
    return new AppError(503, 'at_capacity', msg, [], { 'Retry-After': '5' });
  }
  /** The operator switched the service off (IVR settings `enabled: false`); not a fault, not temporary. */
  static serviceDisabled(msg: string): AppError {
    return new AppError(503, 'service_disabled', msg);
  }
  static internal(): AppError {
    return new AppError(500, 'internal_error', 'Internal server error');
  }
}
