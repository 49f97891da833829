// The package from an ES module: every named export of index.d.ts is importable by name.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as rb from '../index.js';
import { Sandbox, Budget, OutOfSandbox, ConfigError, ERROR_CODES } from '../index.js';

test('named ESM imports', () => {
  assert.equal(typeof Sandbox, 'function');
  assert.equal(typeof Budget, 'function');
  assert.equal(OutOfSandbox.CODE, 'OUT_OF_SANDBOX');
  assert.equal(typeof ConfigError, 'function');
  for (const code of ERROR_CODES) {
    const name = code.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c) => c.toUpperCase());
    assert.equal(typeof rb[name], 'function', name);
  }
});
