'use strict';
// index.d.ts and an example using every method compile under `tsc --strict`.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

test('tsc --strict accepts the types and the every-method example', () => {
  const dir = path.join(__dirname, '..');
  const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
