'use strict';
// index.d.ts and an example using every method compile under `tsc --strict`; so do the Mastra and
// deepagents adapters' types (tsconfig.adapters.json: against those packages' typings).
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const dir = path.join(__dirname, '..');
const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');

for (const config of ['tsconfig.json', 'tsconfig.adapters.json']) {
  test(`tsc --strict -p ${config}`, () => {
    const r = spawnSync(process.execPath, [tsc, '-p', config], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}
