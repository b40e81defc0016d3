/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3.x, "stored" entries only): local file headers, the
 * central directory and its end record, CRC-32 per entry, UTF-8 names (general purpose bit 11).
 * PDFs are already compressed (pdf-lib deflates their streams), so deflating them again gains
 * little; storing keeps this module dependency-free and the same in Deno and Node.
 * Limits: fewer than 65,535 entries and under 4 GiB in all (no ZIP64); `zipStore` throws beyond.
 */

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** The entry's modification time (written as MS-DOS local date and time, as given). */
  modified: Date;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date of the wall-clock parts given (1980 to 2107). */
function dosDateTime(d: { year: number; month: number; day: number; hour: number; minute: number; second: number }) {
  const year = Math.min(Math.max(d.year, 1980), 2107);
  return {
    time: (d.hour << 11) | (d.minute << 5) | Math.floor(d.second / 2),
    date: ((year - 1980) << 9) | (d.month << 5) | d.day,
  };
}

/** The wall clock of `at` in Europe/Berlin (ZIP stores local time without a zone). */
export function berlinParts(at: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { year: +parts.year, month: +parts.month, day: +parts.day, hour: +parts.hour, minute: +parts.minute, second: +parts.second };
}

/** The archive's bytes: every entry stored (method 0), in the order given. */
export function zipStore(entries: ZipEntry[]): Uint8Array {
  if (entries.length >= 0xffff) throw new Error('zip: too many entries');
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const crc = crc32(entry.data);
    const size = entry.data.length;
    const { time, date } = dosDateTime(berlinParts(entry.modified));
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true); // local file header signature
    lv.setUint16(4, 20, true); // version needed: 2.0
    lv.setUint16(6, 0x0800, true); // flags: UTF-8 names
    lv.setUint16(8, 0, true); // method: stored
    lv.setUint16(10, time, true);
    lv.setUint16(12, date, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, size, true); // compressed size
    lv.setUint32(22, size, true); // uncompressed size
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, 0, true); // extra field length
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true); // central directory header signature
    cv.setUint16(4, 20, true); // version made by: 2.0, MS-DOS attributes
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, 0, true);
    cv.setUint16(12, time, true);
    cv.setUint16(14, date, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, size, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    // extra length, comment length, disk number, internal and external attributes: 0
    cv.setUint32(42, offset, true); // offset of the local header
    central.set(name, 46);
    locals.push(local, entry.data);
    centrals.push(central);
    offset += local.length + size;
    if (offset >= 0xffffffff) throw new Error('zip: archive too large');
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true); // end of central directory signature
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + end.length);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
