'use strict';
// The error classes: one per stable error code of the rootbound contract, all subclasses of
// RootboundError. The codes come from the native module (errorCodes()); a test checks that each
// has its class here, so a new code cannot ship without one.

class RootboundError extends Error {
  /**
   * @param {string} message written for the agent: it names only the agent's own argument
   * @param {{code?: string, details?: Record<string, unknown>}} [opts]
   */
  constructor(message, opts = {}) {
    super(message);
    this.name = new.target.name;
    this.code = opts.code || new.target.CODE;
    this.details = { ...(opts.details || {}) };
  }

  /** The contract's error object: `{ error: { code, message, ...details } }`. */
  toJSON() {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}
RootboundError.CODE = 'ERROR';

const ERRORS = Object.create(null);

function define(name, code) {
  const cls = { [name]: class extends RootboundError {} }[name];
  cls.CODE = code;
  ERRORS[code] = cls;
  return cls;
}

const OutOfSandbox = define('OutOfSandbox', 'OUT_OF_SANDBOX');
const NotFound = define('NotFound', 'NOT_FOUND');
const NotAFile = define('NotAFile', 'NOT_A_FILE');
const Denied = define('Denied', 'DENIED');
const PermissionDenied = define('PermissionDenied', 'PERMISSION_DENIED');
const InvalidArgument = define('InvalidArgument', 'INVALID_ARGUMENT');
const InvalidPattern = define('InvalidPattern', 'INVALID_PATTERN');
const PatternTooLarge = define('PatternTooLarge', 'PATTERN_TOO_LARGE');
const SymlinkLoop = define('SymlinkLoop', 'SYMLINK_LOOP');
const AlreadyExists = define('AlreadyExists', 'ALREADY_EXISTS');
const TooLarge = define('TooLarge', 'TOO_LARGE');
const IoError = define('IoError', 'IO_ERROR');
const Cancelled = define('Cancelled', 'CANCELLED');

/** A config file (or policy) with problems: `problems` lists `{ key, message }`, all at once. */
class ConfigError extends InvalidArgument {
  get problems() {
    return Array.isArray(this.details.problems) ? this.details.problems : [];
  }
}

/** The error for a contract error object (`{ error: {...} }` or its body). */
function errorFrom(obj) {
  const body = obj && typeof obj.error === 'object' && obj.error !== null ? obj.error : obj || {};
  const { code = 'IO_ERROR', message = '', ...details } = body;
  let cls = ERRORS[code] || RootboundError;
  if (code === 'INVALID_ARGUMENT' && Array.isArray(details.problems)) cls = ConfigError;
  return new cls(String(message), { code: String(code), details });
}

module.exports = {
  RootboundError,
  ERRORS,
  errorFrom,
  ConfigError,
  OutOfSandbox,
  NotFound,
  NotAFile,
  Denied,
  PermissionDenied,
  InvalidArgument,
  InvalidPattern,
  PatternTooLarge,
  SymlinkLoop,
  AlreadyExists,
  TooLarge,
  IoError,
  Cancelled,
};
