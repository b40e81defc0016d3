#!/usr/bin/env node
/**
 * Draws the demo harbour's berth photos (issue 40, item 15): small PNGs, generated here rather
 * than downloaded, committed under supabase/seeds/place-images/demo/ and uploaded into the
 * place-images bucket by config.toml's objects_path (as `supabase seed buckets` does);
 * supabase/seeds/400_place_photos.sql links them to their berths.
 * Each shows a berth as seen from the pier: sky, the far shore, water, the pier's planks and a
 * boat in the berth's own colour. Run again only to change the pictures: node scripts/generate-berth-photos.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const W = 480;
const H = 270;
const OUT = new URL('../supabase/seeds/place-images/demo/', import.meta.url);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
function png(pixels) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0;
    pixels.copy(raw, y * (W * 3 + 1) + 1, y * W * 3, (y + 1) * W * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function draw({ hull, cabin, sky, boatX, long }) {
  const px = Buffer.alloc(W * H * 3);
  const set = (x, y, [r, g, b]) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const i = (y * W + x) * 3;
    px[i] = r;
    px[i + 1] = g;
    px[i + 2] = b;
  };
  const horizon = 95;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (y < horizon - 18) set(x, y, sky);
      else if (y < horizon)
        set(x, y, (x >> 5) % 3 === 0 && y > horizon - 12 ? [120, 113, 108] : [87, 125, 90]); // far shore, houses
      else {
        const wave = ((x + y * 3) >> 4) % 6 === 0 && y % 7 === 0;
        set(x, y, wave ? [186, 222, 244] : [30 + (y >> 3), 100 + (y >> 3), 150 + (y >> 4)]);
      }
    }
  }
  // The pier, planks running into the picture from the lower left.
  for (let y = 150; y < H; y++) {
    const right = Math.round(120 - (y - 150) * 0.2 + (y - 150) * 0.9);
    for (let x = 0; x < right; x++) set(x, y, y % 12 === 0 || x % 40 === 0 ? [120, 90, 60] : [168, 132, 92]);
  }
  // The boat: hull (a trapezium), a cabin, a mast.
  const len = long ? 250 : 190;
  const top = 150;
  for (let y = top; y < top + 34; y++) {
    const inset = Math.round((y - top) * 0.8);
    for (let x = boatX + inset; x < boatX + len - inset * 1.6; x++) set(x, y, y < top + 6 ? [245, 245, 245] : hull);
  }
  for (let y = top - 26; y < top; y++) for (let x = boatX + 50; x < boatX + 50 + len * 0.4; x++) set(x, y, cabin);
  for (let y = top - 26; y < top - 16; y++)
    for (let x = boatX + 60; x < boatX + 50 + len * 0.38; x += 1) if ((x - boatX) % 22 < 14) set(x, y, [40, 60, 80]);
  for (let y = 20; y < top - 26; y++) for (let x = boatX + 40; x < boatX + 43; x++) set(x, y, [230, 230, 230]);
  return png(px);
}

const photos = {
  A04: { hull: [220, 38, 38], cabin: [241, 245, 249], sky: [191, 219, 254], boatX: 200, long: false },
  A08: { hull: [22, 101, 52], cabin: [254, 249, 195], sky: [224, 231, 255], boatX: 220, long: false },
  B04: { hull: [30, 64, 175], cabin: [241, 245, 249], sky: [186, 230, 253], boatX: 190, long: false },
  C06: { hull: [234, 179, 8], cabin: [255, 255, 255], sky: [207, 250, 254], boatX: 180, long: true },
  D03: { hull: [15, 23, 42], cabin: [226, 232, 240], sky: [219, 234, 254], boatX: 170, long: true },
  E02: { hull: [255, 255, 255], cabin: [203, 213, 225], sky: [199, 210, 254], boatX: 160, long: true },
};

mkdirSync(OUT, { recursive: true });
for (const [name, spec] of Object.entries(photos)) {
  const file = new URL(`${name}.png`, OUT);
  const data = draw(spec);
  writeFileSync(file, data);
  console.log(`${file.pathname}: ${data.length} bytes`);
}
