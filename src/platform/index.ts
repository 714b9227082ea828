/** Platform: configuration, errors, auth, secrets, logging, metrics and the HTTP helpers. */
export { loadConfig, testConfig, ConfigError, type Config } from './config.js';
export { AppError, type ErrorDetail } from './app-error.js';
export { createSealer, type Sealer } from './seal.js';
export {
  verifyHs256,
  signHs256,
  TOKEN_REFUSAL_REASONS,
  type TokenRefusalReason,
  type VerifiedToken,
  type VerifiedTokenCache,
} from './jwt.js';
export { sha256, safeEqual, randomSecret, randomDigits, hmacSha256 } from './secrets.js';
export {
  createAuthenticator,
  CREDENTIALS,
  PERSONAL_TOKEN_PREFIX,
  type AccountIdentity,
  type Authenticator,
  type AuthenticatorOptions,
  type AuthRequirement,
  type Principal,
  type CredentialLookup,
  type PersonalTokenLookup,
} from './auth.js';
export {
  ROLES,
  assertRole,
  includesRole,
  neededRole,
  roleOn,
  type Role,
  type RoleGrant,
} from './auth-roles.js';
export {
  CONSOLE_SESSION_COOKIE,
  assertSameOrigin,
  clearedConsoleSessionCookie,
  consoleSessionCookie,
  consoleSessionIdOf,
  isConsoleSessionId,
  type ConsoleSessionLookup,
  type SessionHolder,
} from './console-session.js';
export { createLogger, scrubUrl, type Logger } from './logger.js';
export {
  activeTraceId,
  annotate,
  incomingTraceId,
  inSpan,
  startTelemetry,
  traceFields,
  type Telemetry,
  type TelemetryOptions,
} from './telemetry.js';
export { createMetrics, type Metrics } from './metrics.js';
export {
  defineRoute,
  buildOpenApi,
  apiDocs,
  consolePages,
  errorHandler,
  metricsGate,
  mountRoutes,
  notFoundHandler,
  traceContext,
  type RouteDef,
  type RouteContext,
  type RouteReply,
  type StoreOutageCheck,
} from './http/index.js';
export { newId, isoNow } from './ids.js';
export { createRateLimitGate, RATE_LIMITS, type RateLimitGate } from './rate-limits.js';
export type {
  RateLimiter,
  RateLimiterFactory,
  RateLimitRule,
  RateLimitOutcome,
  RateLimitEntry,
} from './rate-limiter.js';
export { wellFormed } from './well-formed.js';
export {
  createCredentialGuesses,
  ADMIN_GUESS_WINDOWS,
  type CredentialGuesses,
  type CredentialGuessesOptions,
} from './credential-guesses.js';
export {
  auditAuthorOf,
  auditDiff,
  redactSecrets,
  REDACTED,
  type AuditAuthor,
  type AuditChange,
  type AuditEvent,
  type AuditSink,
} from './audit-sink.js';
