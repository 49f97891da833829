'use strict';
// Shared fixtures: a small tree with a secret outside it, and a generated big tree for long searches.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function tmp(prefix) {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** base/{tree,outside}: tree has notes.txt, src/main.rs, .env, a.pem; outside has secret.txt. */
function smallTree() {
  const base = tmp('rb-node-');
  const tree = path.join(base, 'tree');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(tree, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(tree, 'notes.txt'), 'first line\nneedle one\nthird\nneedle two\n');
  fs.writeFileSync(path.join(tree, 'src', 'main.rs'), 'fn main() {\n    // needle\n}\n');
  fs.writeFileSync(path.join(tree, 'src', 'lib.rs'), 'pub fn needle() {}\n');
  fs.writeFileSync(path.join(tree, '.env'), 'KEY=needle-secret\n');
  fs.writeFileSync(path.join(tree, 'a.pem'), 'needle pem\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET needle\n');
  // A 1x1 PNG for read_media_file.
  fs.writeFileSync(
    path.join(tree, 'dot.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  return { base, tree, outside };
}

let big;
/** ~128 MiB of words in 800 files (one 'needle' each): `\w+` in count mode on one thread takes
 *  a while (0.6 s here). */
function bigTree() {
  if (big) return big;
  big = tmp('rb-node-big-');
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'mutex', 'lock', 'kernel', 'page', 'cache'];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % words.length;
  const lines = [];
  for (let i = 0; i < 512; i++) lines.push(Array.from({ length: 8 }, () => words[rnd()]).join(' ') + '\n');
  const block = lines.join('').repeat(6) + 'the needle is here\n';
  for (let d = 0; d < 20; d++) {
    const sub = path.join(big, `d${d}`);
    fs.mkdirSync(sub);
    for (let f = 0; f < 40; f++) fs.writeFileSync(path.join(sub, `f${f}.txt`), block);
  }
  return big;
}

const SLOW = { pattern: '\\w+', outputMode: 'count', limit: 1000, timeoutMs: 600000 };

function cleanup(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

const BIG_FILES = 800;

module.exports = { BIG_FILES, tmp, smallTree, bigTree, SLOW, cleanup };
