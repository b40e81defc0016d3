/**
 * The ZIP writer of the invoice archive (supabase/functions/_shared/zip.ts): CRC-32 as zlib
 * computes it, and an archive that Info-ZIP's `unzip` tests and extracts byte for byte (with
 * the Berlin wall-clock time of each entry).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32, zipStore } from '../../functions/_shared/zip.ts';

describe('zip writer', () => {
  it('computes CRC-32 as zlib does', () => {
    for (const text of ['', 'a', 'The quick brown fox jumps over the lazy dog', 'Rechnung für Straße']) {
      const bytes = new TextEncoder().encode(text);
      expect(crc32(bytes)).toBe(zlibCrc32(bytes) >>> 0);
    }
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('writes an archive that unzip tests and extracts unchanged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    const a = new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff);
    const b = new TextEncoder().encode('%PDF-1.7\nGrüße\n');
    const zip = zipStore([
      { name: 'RE-2027-00001-Rechnung.pdf', data: a, modified: new Date('2027-07-05T10:15:30Z') },
      { name: 'RE-2027-00002-Gutschrift.pdf', data: b, modified: new Date('2027-01-05T23:59:58Z') },
    ]);
    const file = join(dir, 'a.zip');
    writeFileSync(file, zip);
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const listing = execFileSync('unzip', ['-l', file], { encoding: 'utf8' });
    // Berlin wall clock: 12:15 in summer (UTC+2), 00:59 the next day in winter (UTC+1).
    expect(listing).toMatch(/70000\s+2027-07-05 12:15\s+RE-2027-00001-Rechnung\.pdf/);
    expect(listing).toMatch(/\d+\s+2027-01-06 00:59\s+RE-2027-00002-Gutschrift\.pdf/);
    execFileSync('unzip', ['-q', file, '-d', join(dir, 'out')]);
    expect(new Uint8Array(readFileSync(join(dir, 'out', 'RE-2027-00001-Rechnung.pdf')))).toEqual(a);
    expect(new Uint8Array(readFileSync(join(dir, 'out', 'RE-2027-00002-Gutschrift.pdf')))).toEqual(b);
  });

  it('an empty archive is just the end record', () => {
    expect(zipStore([])).toEqual(new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
  });
});
