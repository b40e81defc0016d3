#!/usr/bin/env node
/**
 * The registry mirror this project is developed against serves only the packages for this
 * platform, so `npm install` leaves the optional platform packages of other systems (esbuild,
 * rolldown, tailwind's oxide, deno, ...) out of package-lock.json, and `npm ci` then refuses
 * the lock as out of sync. This adds each missing optional dependency as an optional entry
 * (os/cpu inferred from its name where it names them), which `npm ci` accepts and skips on
 * other platforms, and which a full registry resolves normally.
 *
 * `node scripts/fix-lockfile.mjs` fixes the lock; `--check` only reports (used by npm test).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const file = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'cygwin'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'mips64el', 'wasm32'];
const words = (name) => name.split('/').pop().split(/[-_]/);

/** Where Node would find `dep` from the package at `path`: its own node_modules, then up. */
function lookup(path, dep) {
  const parts = path ? path.split('/node_modules/') : [];
  for (let i = parts.length; i >= 0; i--) {
    const base = parts.slice(0, i).join('/node_modules/');
    const key = `${base ? `${base}/` : ''}node_modules/${dep}`;
    if (packages[key]) return key;
  }
  return undefined;
}

const missing = [];
for (const [path, meta] of Object.entries(packages)) {
  const optional = Object.entries(meta.optionalDependencies ?? {});
  // Put missing ones beside a sibling that is installed (the one for this platform).
  const sibling = optional
    .map(([dep]) => lookup(path, dep))
    .find((key) => key && packages[key].version === optional.find(([d]) => key.endsWith(`node_modules/${d}`))?.[1].replace(/^[\^~=]/, ''));
  for (const [dep, version] of optional) {
    const wanted = version.replace(/^[\^~=]/, '');
    const found = lookup(path, dep);
    if (found && (packages[found].version === wanted || !/^\d+\.\d+\.\d+/.test(wanted))) continue;
    // Taken by another version: nest it under the package that wants it. Absent: beside the
    // sibling that is installed (the one for this platform), where npm would have put it.
    const dir = found || !sibling ? `${path ? `${path}/` : ''}` : sibling.slice(0, sibling.lastIndexOf('node_modules/'));
    const key = `${dir}node_modules/${dep}`;
    if (packages[key]) continue;
    const entry = { version: wanted, optional: true };
    if (meta.dev) entry.dev = true;
    const w = words(dep);
    const os = OS.filter((o) => w.includes(o) || (o === 'win32' && w.includes('windows')));
    const cpu = CPU.filter((c) => w.includes(c));
    if (os.length) entry.os = os;
    if (cpu.length) entry.cpu = cpu;
    missing.push([key, entry]);
  }
}

if (process.argv.includes('--check')) {
  if (missing.length) {
    console.error(
      `package-lock.json lacks ${missing.length} optional platform packages (npm ci would refuse it): run \`node scripts/fix-lockfile.mjs\``,
    );
    process.exit(1);
  }
  console.log('package-lock.json: complete for npm ci');
  process.exit(0);
}
for (const [key, entry] of missing) packages[key] = entry;
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${missing.length} optional platform entries to package-lock.json`);
