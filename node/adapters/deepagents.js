'use strict';
// deepagents adapter: a filesystem backend (deepagents' `BackendProtocolV2`: ls, read with line
// offset/limit, readRaw, grep, glob, write, edit, delete) over a sandbox, so `createDeepAgent({
// backend })` and `createFilesystemMiddleware({ backend })` do their file work through rootbound.
// Thin and without policy: each method is one `sb.call` (list_dir, read_file, grep_search, glob,
// write_file, edit_file, delete_file); the sandbox's roots, deny rules, limits and write flags
// decide, and a refusal comes back as the protocol's `{ error: "CODE: message" }`, never thrown.
//
// Paths: deepagents' tools insist on absolute paths, so the backend shows the sandbox as a
// virtual `/`: `/src/a.ts` is the relative path `src/a.ts`, which rootbound resolves against its
// roots in order (and the write root for writes); result paths come back the same way. With
// several roots a name in a later root can be shadowed by the same name in an earlier one.
// `write` asks to overwrite (deepagents' write replaces files): the sandbox's `allowOverwrite`
// still decides.
//
//   const { deepagentsBackend } = require('rootbound/adapters/deepagents');
//   const agent = createDeepAgent({ model, backend: deepagentsBackend(sb) });

const nodePath = require('node:path');

function message(e) {
  return `${e.code}: ${e.message}`;
}

class RootboundBackend {
  #sb;
  #roots;

  /** @param {import('../index').Sandbox} sb */
  constructor(sb) {
    this.#sb = sb;
  }

  /** The sandbox's root directories, longest first (to show a result path as a virtual one). */
  async #rootDirs() {
    if (!this.#roots) {
      const r = await this.#sb.call('list_roots', {});
      const dirs = r.error ? [] : r.roots.map((x) => x.path);
      this.#roots = dirs.sort((a, b) => b.length - a.length);
    }
    return this.#roots;
  }

  /** A deepagents path (`/a/b`) as the sandbox's relative path (`a/b`; `/` is `.`). */
  #rel(p) {
    const s = String(p == null || p === '' ? '/' : p).replace(/^\/+/, '');
    return s === '' ? '.' : s;
  }

  /** A path from a result as a deepagents path. */
  async #virtual(p) {
    if (!nodePath.isAbsolute(p)) return '/' + p.replace(/^\.\/?/, '');
    for (const root of await this.#rootDirs()) {
      if (p === root) return '/';
      if (p.startsWith(root + '/')) return p.slice(root.length);
    }
    return p;
  }

  async #call(name, args) {
    try {
      return await this.#sb.call(name, args);
    } catch (e) {
      return { error: { code: 'IO_ERROR', message: String((e && e.message) || e) } };
    }
  }

  async ls(path) {
    const files = [];
    let offset;
    for (;;) {
      const r = await this.#call('list_dir', { path: this.#rel(path), offset });
      if (r.error) return { error: message(r.error) };
      const dir = await this.#virtual(r.path);
      for (const e of r.entries) {
        const isDir = e.kind === 'dir' || e.kind === 'directory';
        const p = (dir.endsWith('/') ? dir : dir + '/') + e.name;
        files.push({ path: isDir ? p + '/' : p, is_dir: isDir, size: e.size == null ? undefined : e.size });
      }
      // next_offset is set on every page; truncated says whether another page follows.
      if (!r.truncated || r.next_offset == null) return { files };
      offset = r.next_offset;
    }
  }

  async read(filePath, offset = 0, limit = 500) {
    const r = await this.#call('read_file', { path: this.#rel(filePath), start_line: offset + 1, max_lines: limit });
    if (r.error) return { error: message(r.error) };
    if (r.encoding === 'base64') return { content: new Uint8Array(Buffer.from(r.content, 'base64')) };
    const out = { content: r.content, mimeType: 'text/plain' };
    if (r.start_line != null) out.startLine = r.start_line;
    if (r.end_line != null) out.endLine = r.end_line;
    if (r.truncated && r.next_line != null) out.nextOffset = r.next_line - 1;
    return out;
  }

  async readRaw(filePath) {
    const path = this.#rel(filePath);
    const st = await this.#call('stat', { path });
    if (st.error) return { error: message(st.error) };
    const parts = [];
    let offset = 0;
    let base64 = false;
    for (;;) {
      const r = await this.#call('read_file', { path, offset });
      if (r.error) return { error: message(r.error) };
      base64 = r.encoding === 'base64';
      parts.push(base64 ? Buffer.from(r.content, 'base64') : r.content);
      if (!r.truncated || r.next_offset == null) break;
      offset = r.next_offset;
    }
    const content = base64 ? new Uint8Array(Buffer.concat(parts)) : parts.join('');
    const mimeType = base64 ? 'application/octet-stream' : 'text/plain';
    return { data: { content, mimeType, created_at: st.mtime, modified_at: st.mtime } };
  }

  async grep(pattern, path, glob, maxCount) {
    const args = { pattern, fixed_strings: true, output_format: 'json' };
    if (path != null && this.#rel(path) !== '.') args.path = this.#rel(path);
    if (glob) args.include = glob;
    if (maxCount != null) args.limit = maxCount;
    const r = await this.#call('grep_search', args);
    if (r.error) return { error: message(r.error) };
    const matches = [];
    for (const h of r.hits || []) {
      if (h.kind === 'match') matches.push({ path: await this.#virtual(h.path), line: h.line, text: h.text });
    }
    return { matches, truncated: Boolean(r.truncated || r.timed_out || r.next_cursor) };
  }

  async glob(pattern, path) {
    const args = { pattern };
    if (path != null && this.#rel(path) !== '.') args.path = this.#rel(path);
    const r = await this.#call('glob', args);
    if (r.error) return { error: message(r.error) };
    const paths = r.files || (r.matches ? r.matches.split('\n').filter(Boolean) : []);
    const files = [];
    for (const p of paths) files.push({ path: await this.#virtual(p), is_dir: false });
    return { files, truncated: Boolean(r.truncated || r.timed_out || r.next_cursor) };
  }

  async write(filePath, content) {
    const r = await this.#call('write_file', { path: this.#rel(filePath), content, overwrite: true });
    if (r.error) return { error: message(r.error) };
    return { path: filePath, filesUpdate: null };
  }

  async edit(filePath, oldString, newString, replaceAll = false) {
    const args = { path: this.#rel(filePath), old_string: oldString, new_string: newString, replace_all: Boolean(replaceAll) };
    const r = await this.#call('edit_file', args);
    if (r.error) return { error: message(r.error) };
    return { path: filePath, filesUpdate: null, occurrences: r.replacements };
  }

  async delete(filePath) {
    const r = await this.#call('delete_file', { path: this.#rel(filePath) });
    if (r.error) return { error: message(r.error) };
    return { path: filePath, filesUpdate: null };
  }
}

/**
 * @param {import('../index').Sandbox} sb
 * @returns {RootboundBackend} a deepagents `BackendProtocolV2` over the sandbox
 */
function deepagentsBackend(sb) {
  return new RootboundBackend(sb);
}

module.exports = { deepagentsBackend, RootboundBackend };
