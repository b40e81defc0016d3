import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { engines, skipBecause } from './harness/engines.ts';
import { startStorageFixture, storageUsers } from './harness/storage.ts';
import type { Stack } from '../src/stack.ts';

/**
 * Storage's list-v2 and image transformations (render/image), issue 27 item 4: answers as
 * supabase/storage gives them (listObjectsV2, renderer/image.ts), through storage-js.
 */
/** A 400x300 JPEG (or PNG), four coloured quadrants so a crop is visible. */
async function photo(format: 'jpeg' | 'png' = 'jpeg', width = 400, height = 300) {
  const half = (w: number, h: number, r: number, g: number, b: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer();
  const [tl, tr, bl, br] = await Promise.all([
    half(width / 2, height / 2, 200, 30, 30),
    half(width / 2, height / 2, 30, 200, 30),
    half(width / 2, height / 2, 30, 30, 200),
    half(width / 2, height / 2, 220, 220, 40),
  ]);
  const base = sharp({ create: { width, height, channels: 3, background: '#000' } }).composite([
    { input: tl, left: 0, top: 0 },
    { input: tr, left: width / 2, top: 0 },
    { input: bl, left: 0, top: height / 2 },
    { input: br, left: width / 2, top: height / 2 },
  ]);
  return format === 'jpeg' ? base.jpeg({ quality: 95 }).toBuffer() : base.png().toBuffer();
}

async function imageOf(res: Response | Blob) {
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, size: bytes.length };
}

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`storage list-v2 and render on ${engine.name}`, engine.skip))(
    `storage list-v2 and render on ${engine.name}`,
    () => {
      let stack: Stack;
      let service: SupabaseClient;
      let anon: SupabaseClient;
      let fixtureStack: Awaited<ReturnType<typeof startStorageFixture>> | undefined;
      const { admin, alice, bob } = storageUsers();
      const post = (path: string, body: unknown, key = stack.keys.serviceRoleKey) =>
        fetch(`${stack.url}/storage/v1${path}`, {
          method: 'POST',
          headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });

      beforeAll(async () => {
        fixtureStack = await startStorageFixture(engine.name, [
          [admin, 'admin'],
          [alice, 'user'],
          [bob, 'user'],
        ]);
        ({ stack, service, anon } = fixtureStack);
      }, 60_000);

      afterAll(async () => {
        await fixtureStack?.close();
      });

      describe('list-v2', () => {
        const base = `v2-${randomUUID().slice(0, 8)}`;
        const names = ['b.txt', 'a.txt', 'd.txt', 'c.txt', 'sub/x.txt', 'sub/y.txt', 'other/z.txt'];

        beforeAll(async () => {
          for (const name of names) expect((await service.storage.from('private').upload(`${base}/${name}`, name)).error).toBeNull();
        });

        it('pages a flat listing by name with the cursor', async () => {
          const s = service.storage.from('private');
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < 10; page++) {
            const { data, error } = await s.listV2({ prefix: `${base}/`, limit: 3, cursor });
            expect(error).toBeNull();
            expect(data!.folders).toEqual([]);
            seen.push(...data!.objects.map((o) => o.name));
            if (!data!.hasNext) {
              expect(data!.nextCursor).toBeUndefined();
              break;
            }
            cursor = data!.nextCursor;
            // Storage's continuation token: base64 of "l:<last name>\no:<order>..." (a decoded
            // token's order defaults to asc, so later tokens carry it).
            expect(Buffer.from(cursor!, 'base64').toString()).toBe(`l:${seen[seen.length - 1]}${page > 0 ? '\no:asc' : ''}`);
          }
          expect(seen).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'other/z.txt', 'sub/x.txt', 'sub/y.txt'].map((n) => `${base}/${n}`));
          const first = (await s.listV2({ prefix: `${base}/a` })).data!.objects[0];
          expect(Object.keys(first).sort()).toEqual(['created_at', 'id', 'last_accessed_at', 'metadata', 'name', 'updated_at']);
          expect(first).toMatchObject({ name: `${base}/a.txt`, metadata: { size: 5 } });
          expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
          const desc = await s.listV2({ prefix: `${base}/`, limit: 2, sortBy: { column: 'name', order: 'desc' } });
          expect(desc.data!.objects.map((o) => o.name)).toEqual([`${base}/sub/y.txt`, `${base}/sub/x.txt`]);
          const more = await s.listV2({ prefix: `${base}/`, limit: 2, cursor: desc.data!.nextCursor });
          expect(more.data!.objects.map((o) => o.name)).toEqual([`${base}/other/z.txt`, `${base}/d.txt`]);
        });

        it('lists one folder level with the delimiter: folders end with a slash and page with the objects', async () => {
          const s = service.storage.from('private');
          const one = await s.listV2({ prefix: `${base}/`, with_delimiter: true, limit: 4 });
          expect(one.error).toBeNull();
          expect(one.data!.objects.map((o) => o.name)).toEqual(['a', 'b', 'c', 'd'].map((n) => `${base}/${n}.txt`));
          expect(one.data!.objects[0]).toMatchObject({ key: 'a.txt' });
          expect(one.data!.hasNext).toBe(true);
          const two = await s.listV2({ prefix: `${base}/`, with_delimiter: true, limit: 4, cursor: one.data!.nextCursor });
          expect(two.data!.objects).toEqual([]);
          expect(two.data!.folders).toEqual([
            { key: 'other', name: `${base}/other/`, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null },
            { key: 'sub', name: `${base}/sub/`, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null },
          ]);
          expect(two.data!.hasNext).toBe(false);
          // A cursor on a folder continues after everything in it.
          const byFolder = await s.listV2({ prefix: `${base}/`, with_delimiter: true, limit: 5 });
          expect(byFolder.data!.folders.map((f) => f.name)).toEqual([`${base}/other/`]);
          const rest = await s.listV2({ prefix: `${base}/`, with_delimiter: true, cursor: byFolder.data!.nextCursor });
          expect(rest.data!.folders.map((f) => f.name)).toEqual([`${base}/sub/`]);
          expect(rest.data!.objects).toEqual([]);
          // Top level of the bucket: the base folder shows as one folder.
          const top = await s.listV2({ with_delimiter: true });
          expect(top.data!.folders.map((f) => f.name)).toContain(`${base}/`);
        });

        it('sorts by a timestamp with folders dated by their oldest object', async () => {
          const s = service.storage.from('private');
          const { data } = await s.listV2({
            prefix: `${base}/`,
            with_delimiter: true,
            sortBy: { column: 'created_at', order: 'asc' },
            limit: 2,
          });
          expect(data!.objects.map((o) => o.name)).toEqual([`${base}/b.txt`, `${base}/a.txt`]);
          const cursor = Buffer.from(data!.nextCursor!, 'base64').toString().split('\n');
          expect(cursor).toEqual([`l:${base}/a.txt`, 'o:asc', 'c:created_at', expect.stringMatching(/^a:\d{4}-\d\d-\d\dT/)]);
          const all: string[] = [...data!.objects.map((o) => o.name)];
          let next = data!.nextCursor;
          for (let i = 0; next && i < 10; i++) {
            const page = await s.listV2({ prefix: `${base}/`, with_delimiter: true, cursor: next, limit: 2 });
            all.push(...page.data!.folders.map((f) => f.name), ...page.data!.objects.map((o) => o.name));
            next = page.data!.nextCursor;
          }
          expect(all.sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'other/', 'sub/'].map((n) => `${base}/${n}`));
        });

        it('lists only what the caller may select (RLS)', async () => {
          expect((await alice.client.storage.from('private').upload(`${alice.id}/one.txt`, 'one')).error).toBeNull();
          expect((await alice.client.storage.from('private').upload(`${alice.id}/two/three.txt`, 'three')).error).toBeNull();
          const own = await alice.client.storage.from('private').listV2({ prefix: `${alice.id}/`, with_delimiter: true });
          expect(own.data!.objects.map((o) => o.name)).toEqual([`${alice.id}/one.txt`]);
          expect(own.data!.folders.map((f) => f.name)).toEqual([`${alice.id}/two/`]);
          const all = await alice.client.storage.from('private').listV2();
          expect(all.data!.objects.map((o) => o.name)).toEqual([`${alice.id}/one.txt`, `${alice.id}/two/three.txt`]);
          const other = await bob.client.storage.from('private').listV2({ prefix: `${alice.id}/` });
          expect(other.data).toEqual({ hasNext: false, folders: [], objects: [] });
          expect((await anon.storage.from('private').listV2()).data!.objects).toEqual([]);
        });

        it('refuses bad parameters as Storage does', async () => {
          const cases: [unknown, string][] = [
            [{ limit: 0 }, 'body/limit must be >= 1'],
            [{ limit: 1.5 }, 'body/limit must be integer'],
            [{ prefix: 3 }, 'body/prefix must be string'],
            [{ sortBy: { column: 'size' } }, 'body/sortBy/column must be equal to one of the allowed values'],
            [{ sortBy: { order: 'asc' } }, "body/sortBy must have required property 'column'"],
            [{ with_delimiter: 'yes' }, 'body/with_delimiter must be boolean'],
          ];
          for (const [body, message] of cases) {
            const res = await post('/object/list-v2/private', body);
            expect(res.status, message).toBe(400);
            expect(await res.json()).toEqual({ statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message });
          }
          const badCursor = await post('/object/list-v2/private', { cursor: Buffer.from('nonsense').toString('base64') });
          expect(badCursor.status).toBe(400);
          expect(await badCursor.json()).toMatchObject({
            statusCode: '400',
            code: 'InvalidParameter',
            message: 'Invalid Parameter continuation token',
          });
        });
      });

      describe('image transformation', () => {
        const jpeg = 'berths/photo.jpg';
        let original: Buffer;

        beforeAll(async () => {
          original = await photo('jpeg');
          const up = await admin.client.storage.from('images').upload(jpeg, original, { contentType: 'image/jpeg', cacheControl: '120' });
          expect(up.error).toBeNull();
        });

        it('renders public images with width, height, resize mode, format and quality', async () => {
          const s = anon.storage.from('images');
          const cover = s.getPublicUrl(jpeg, { transform: { width: 100, height: 100, resize: 'cover' } }).data.publicUrl;
          expect(cover).toBe(`${stack.url}/storage/v1/render/image/public/images/${jpeg}?width=100&height=100&resize=cover`);
          // Browsers accept WebP: that is what comes back unless format=origin.
          const webp = await fetch(cover, { headers: { accept: 'image/avif,image/webp,*/*' } });
          expect(webp.status).toBe(200);
          expect(webp.headers.get('content-type')).toBe('image/webp');
          expect(webp.headers.get('x-transformations')).toBe('height:100,width:100,resizing_type:fill');
          expect(webp.headers.get('cache-control')).toBe('max-age=120');
          expect(webp.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
          expect(await imageOf(webp)).toMatchObject({ format: 'webp', width: 100, height: 100 });
          const plain = await fetch(cover);
          expect(plain.headers.get('content-type')).toBe('image/jpeg');
          expect(await imageOf(plain)).toMatchObject({ format: 'jpeg', width: 100, height: 100 });
          const origin = s.getPublicUrl(jpeg, { transform: { width: 100, format: 'origin' } }).data.publicUrl;
          expect(await imageOf(await fetch(origin, { headers: { accept: 'image/webp' } }))).toMatchObject({
            format: 'jpeg',
            width: 100,
            height: 75,
          });
          const contain = s.getPublicUrl(jpeg, { transform: { width: 100, height: 100, resize: 'contain' } }).data.publicUrl;
          expect(await imageOf(await fetch(contain))).toMatchObject({ width: 100, height: 75 });
          const fill = s.getPublicUrl(jpeg, { transform: { width: 100, height: 100, resize: 'fill' } }).data.publicUrl;
          expect(await imageOf(await fetch(fill))).toMatchObject({ width: 100, height: 100 });
          const tall = s.getPublicUrl(jpeg, { transform: { height: 150 } }).data.publicUrl;
          expect(await imageOf(await fetch(tall))).toMatchObject({ width: 200, height: 150 });
          // Cover crops the middle: the centre of a 100x100 cover of the quadrants is still split in four.
          const pixels = await sharp(
            Buffer.from(
              await (
                await fetch(s.getPublicUrl(jpeg, { transform: { width: 60, height: 60, format: 'origin' } }).data.publicUrl)
              ).arrayBuffer(),
            ),
          )
            .raw()
            .toBuffer({ resolveWithObject: true });
          expect(pixels.info).toMatchObject({ width: 60, height: 60 });
          const red = pixels.data[0];
          expect(red).toBeGreaterThan(150);
          // Quality: lower quality, fewer bytes; explicit avif.
          const q = (quality: number) => s.getPublicUrl(jpeg, { transform: { width: 300, quality } }).data.publicUrl;
          const low = await imageOf(await fetch(q(20)));
          const high = await imageOf(await fetch(q(100)));
          expect(low.size).toBeLessThan(high.size);
          const avif = await fetch(`${stack.url}/storage/v1/render/image/public/images/${jpeg}?width=80&format=avif`);
          expect(avif.headers.get('content-type')).toBe('image/avif');
          expect(await imageOf(avif)).toMatchObject({ width: 80, height: 60 });
          // Sizes past Storage's limit are clamped, and small images are never enlarged.
          const huge = await fetch(`${stack.url}/storage/v1/render/image/public/images/${jpeg}?width=9000`);
          expect(huge.headers.get('x-transformations')).toBe('width:2500,resizing_type:fill');
          expect(await imageOf(huge)).toMatchObject({ width: 400, height: 300 });
          // Download name as on the object route.
          const dl = await fetch(s.getPublicUrl(jpeg, { download: 'Liegeplatz.jpg', transform: { width: 50 } }).data.publicUrl);
          expect(dl.headers.get('content-disposition')).toBe("attachment; filename=Liegeplatz.jpg; filename*=UTF-8''Liegeplatz.jpg");
        });

        it('answers bad parameters, missing objects and non-images with Storage errors, never a 500', async () => {
          const url = (query: string, bucket = 'images', name = jpeg) =>
            `${stack.url}/storage/v1/render/image/public/${bucket}/${name}?${query}`;
          const cases: [string, string][] = [
            ['quality=10', 'querystring/quality must be >= 20'],
            ['quality=101', 'querystring/quality must be <= 100'],
            ['width=-5', 'querystring/width must be >= 0'],
            ['height=abc', 'querystring/height must be integer'],
            ['resize=stretch', 'querystring/resize must be equal to one of the allowed values'],
            ['format=png', 'querystring/format must be equal to one of the allowed values'],
          ];
          for (const [query, message] of cases) {
            const res = await fetch(url(query));
            expect(res.status, query).toBe(400);
            expect(await res.json()).toEqual({ statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message });
          }
          const missing = await fetch(url('width=10', 'images', 'berths/none.jpg'));
          expect(missing.status).toBe(400);
          expect(await missing.json()).toEqual({ statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' });
          const notPublic = await fetch(url('width=10', 'private', 'x.jpg'));
          expect(await notPublic.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
          expect(
            (await service.storage.from('admin-only').upload('note.txt', 'just text', { contentType: 'text/plain' })).error,
          ).toBeNull();
          const text = await fetch(url('width=10', 'admin-only', 'note.txt'));
          expect(text.status).toBe(400);
          expect(await text.json()).toEqual({
            statusCode: '400',
            code: 'InvalidRequest',
            error: 'InvalidRequest',
            message: 'The source image is invalid or unsupported for rendering',
          });
        });

        it('renders for the caller on the authenticated route: RLS decides', async () => {
          const name = `${alice.id}/portrait.png`;
          expect(
            (await alice.client.storage.from('private').upload(name, await photo('png', 200, 400), { contentType: 'image/png' })).error,
          ).toBeNull();
          const own = await alice.client.storage.from('private').download(name, { transform: { width: 50, height: 50, resize: 'cover' } });
          expect(own.error).toBeNull();
          expect(await imageOf(own.data!)).toMatchObject({ format: 'png', width: 50, height: 50 });
          const other = await bob.client.storage.from('private').download(name, { transform: { width: 50 } });
          expect(other.error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });
          const nobody = await anon.storage.from('private').download(name, { transform: { width: 50 } });
          expect(nobody.error).toMatchObject({ status: 400, statusCode: '404' });
        });

        it('signs URLs with transformations that the token fixes', async () => {
          const name = `${alice.id}/signed.jpg`;
          expect((await alice.client.storage.from('private').upload(name, original, { contentType: 'image/jpeg' })).error).toBeNull();
          const signed = await alice.client.storage
            .from('private')
            .createSignedUrl(name, 60, { transform: { width: 120, height: 40, resize: 'fill' } });
          expect(signed.error).toBeNull();
          expect(signed.data!.signedUrl).toContain(`/storage/v1/render/image/sign/private/${name}?token=`);
          const res = await fetch(signed.data!.signedUrl);
          expect(res.status).toBe(200);
          expect(res.headers.get('expires')).toBeTruthy();
          expect(res.headers.get('x-transformations')).toBe('height:40,width:120,resizing_type:force');
          expect(await imageOf(res)).toMatchObject({ format: 'jpeg', width: 120, height: 40 });
          // Query parameters cannot change what was signed.
          const widened = await fetch(`${signed.data!.signedUrl}&width=400`);
          expect(await imageOf(widened)).toMatchObject({ width: 120, height: 40 });
          // Without transform the URL stays an object URL; the token does not fit another path.
          const plain = await alice.client.storage.from('private').createSignedUrl(name, 60);
          expect(plain.data!.signedUrl).toContain('/storage/v1/object/sign/');
          const token = new URL(signed.data!.signedUrl).searchParams.get('token');
          const elsewhere = await fetch(`${stack.url}/storage/v1/render/image/sign/private/${alice.id}/other.jpg?token=${token}`);
          expect(elsewhere.status).toBe(400);
          expect(await elsewhere.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
          const bad = await alice.client.storage.from('private').createSignedUrl(name, 60, { transform: { quality: 5 } });
          expect(bad.error).toMatchObject({ status: 400, message: 'body/transform/quality must be >= 20' });
          const foreign = await bob.client.storage.from('private').createSignedUrl(name, 60, { transform: { width: 10 } });
          expect(foreign.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
        });
      });
    },
  );
}
