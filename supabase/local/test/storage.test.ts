import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt, jwtVerify } from 'jose';
import { engines, skipBecause } from './harness/engines.ts';
import { startStorageFixture, storageUsers } from './harness/storage.ts';
import type { Stack } from '../src/stack.ts';

const fixture = resolve(import.meta.dirname, 'fixtures/storage');
const png = (size: number) => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
};

/** Raw HTTP, for paths a fetch client would normalise away (../) and for exact statuses. */
function raw(stack: Stack, method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) {
  const url = new URL(stack.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolvePromise, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { apikey: stack.keys.anonKey, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`storage on ${engine.name}`, engine.skip))(`storage on ${engine.name}`, () => {
    let stack: Stack;
    let dir: string;
    let service: SupabaseClient;
    let anon: SupabaseClient;
    let fixtureStack: Awaited<ReturnType<typeof startStorageFixture>> | undefined;
    const { admin, alice, bob } = storageUsers();

    beforeAll(async () => {
      fixtureStack = await startStorageFixture(engine.name, [
        [admin, 'admin'],
        [alice, 'user'],
        [bob, 'user'],
      ]);
      ({ stack, dir, service, anon } = fixtureStack);
    }, 60_000);

    afterAll(async () => {
      await fixtureStack?.close();
    });

    describe('buckets', () => {
      it('come from migrations and from config.toml', async () => {
        const { data, error } = await service.storage.listBuckets();
        expect(error).toBeNull();
        const byId = Object.fromEntries(data!.map((b) => [b.id, b]));
        expect(Object.keys(byId).sort()).toEqual(['admin-only', 'from-config', 'images', 'private', 'tiny']);
        expect(byId['from-config']).toMatchObject({ public: true, file_size_limit: 1048576, allowed_mime_types: ['image/png'] });
        expect(byId.images).toMatchObject({ public: true, file_size_limit: 5242880 });
        expect(byId.images.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        // a list carries `type`, except for the Python clients that fail on it (issue 45; Storage's getAllBuckets)
        expect(byId.images.type).toBe('STANDARD');
        const listFor = async (headers: Record<string, string>) => {
          const res = await fetch(`${stack.url}/storage/v1/bucket`, {
            headers: { apikey: stack.keys.serviceRoleKey, Authorization: `Bearer ${stack.keys.serviceRoleKey}`, ...headers },
          });
          return ((await res.json()) as Record<string, unknown>[]).find((b) => b.id === 'images')!;
        };
        expect(Object.keys(await listFor({ 'x-client-info': 'supabase-py/2.17.0' }))).not.toContain('type');
        expect(Object.keys(await listFor({ 'user-agent': 'supabase-py/storage3 v0.12.0' }))).not.toContain('type');
        expect((await listFor({ 'x-client-info': 'supabase-py/2.18.0' })).type).toBe('STANDARD');
        // objects_path: the folder's files are in the bucket, served like any upload.
        const listed = await service.storage.from('from-config').list();
        expect(listed.data!.map((e) => e.name)).toEqual(['logo.png', 'sub']);
        const logo = await fetch(anon.storage.from('from-config').getPublicUrl('logo.png').data.publicUrl);
        expect(logo.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await logo.arrayBuffer())).toEqual(readFileSync(join(fixture, 'seed-images/logo.png')));
        expect((await service.storage.from('from-config').list('sub')).data!.map((e) => e.name)).toEqual(['wave.png']);
      });

      it('service role creates, reads, updates, empties and deletes a bucket', async () => {
        const created = await service.storage.createBucket('scratch', {
          public: false,
          fileSizeLimit: '2MB',
          allowedMimeTypes: ['image/*'],
        });
        expect(created).toEqual({ data: { name: 'scratch' }, error: null });
        const got = await service.storage.getBucket('scratch');
        // the columns Storage's getBucket selects, without `type` (issue 45)
        expect(Object.keys(got.data!)).toEqual([
          'id',
          'name',
          'owner',
          'public',
          'created_at',
          'updated_at',
          'file_size_limit',
          'allowed_mime_types',
        ]);
        expect(got.data).toMatchObject({
          id: 'scratch',
          name: 'scratch',
          public: false,
          file_size_limit: 2000000,
          allowed_mime_types: ['image/*'],
        });
        const dup = await service.storage.createBucket('scratch');
        expect(dup.error).toMatchObject({ status: 400, statusCode: '409', message: 'The resource already exists' });
        const updated = await service.storage.updateBucket('scratch', { public: true, fileSizeLimit: null, allowedMimeTypes: null });
        expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
        expect((await service.storage.getBucket('scratch')).data).toMatchObject({
          public: true,
          file_size_limit: null,
          allowed_mime_types: null,
        });
        await service.storage.from('scratch').upload('a.txt', 'a');
        const notEmpty = await service.storage.deleteBucket('scratch');
        expect(notEmpty.error).toMatchObject({ statusCode: '409', message: 'The bucket you tried to delete is not empty' });
        // Storage queues the emptying and says so (issue 45); the local stack has emptied it already
        expect(await service.storage.emptyBucket('scratch')).toEqual({
          data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
          error: null,
        });
        expect((await service.storage.from('scratch').list()).data).toEqual([]);
        expect(await service.storage.deleteBucket('scratch')).toEqual({ data: { message: 'Successfully deleted' }, error: null });
        const gone = await service.storage.getBucket('scratch');
        expect(gone.error).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });
      });

      it('anon and ordinary users cannot create buckets (RLS on storage.buckets)', async () => {
        for (const client of [anon, alice.client]) {
          const { error } = await client.storage.createBucket('nope');
          expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
        }
        const invalid = await service.storage.createBucket('bad/name');
        expect(invalid.error).toMatchObject({ statusCode: '400', message: 'Bucket name invalid' });
      });
    });

    describe('objects', () => {
      it('uploads raw and multipart bodies, refuses a duplicate unless upserted, updates with PUT', async () => {
        const own = alice.client.storage.from('private');
        const rawUp = await own.upload(`${alice.id}/notes.txt`, Buffer.from('first'), { contentType: 'text/plain' });
        expect(rawUp.error).toBeNull();
        expect(rawUp.data).toMatchObject({ path: `${alice.id}/notes.txt`, fullPath: `private/${alice.id}/notes.txt` });
        expect(rawUp.data!.id).toMatch(/^[0-9a-f-]{36}$/);
        const multi = await own.upload(`${alice.id}/pic.png`, new Blob([png(100)], { type: 'image/png' }));
        expect(multi.error).toBeNull();
        const dup = await own.upload(`${alice.id}/notes.txt`, Buffer.from('again'));
        expect(dup.error).toMatchObject({ status: 400, statusCode: '409', message: 'The resource already exists' });
        expect((await own.upload(`${alice.id}/notes.txt`, Buffer.from('second'), { upsert: true })).error).toBeNull();
        expect(await (await own.download(`${alice.id}/notes.txt`)).data!.text()).toBe('second');
        expect((await own.update(`${alice.id}/notes.txt`, new Blob(['third'], { type: 'text/plain' }))).error).toBeNull();
        const dl = await own.download(`${alice.id}/notes.txt`);
        expect(await dl.data!.text()).toBe('third');
        const info = await own.info(`${alice.id}/pic.png`);
        expect(info.error).toBeNull();
        expect(info.data).toMatchObject({
          name: `${alice.id}/pic.png`,
          bucketId: 'private',
          size: 100,
          contentType: 'image/png',
          cacheControl: 'max-age=3600',
        });
        // uploaded without metadata: {} as Storage stores it, not null (issue 45)
        expect(info.data!.metadata).toEqual({});
        expect(await own.exists(`${alice.id}/pic.png`)).toMatchObject({ data: true });
        expect((await own.exists(`${alice.id}/missing.png`)).data).toBe(false);
        // Every object has its storage.objects row, owned by the uploader.
        const { rows } = await stack.db.query<{ owner: string; mimetype: string }>(
          `select owner::text, metadata->>'mimetype' as mimetype from storage.objects where bucket_id = 'private' and name = $1`,
          [`${alice.id}/pic.png`],
        );
        expect(rows).toEqual([{ owner: alice.id, mimetype: 'image/png' }]);
      });

      it('lets RLS decide reads: another user sees nothing of a private folder', async () => {
        await alice.client.storage.from('private').upload(`${alice.id}/secret.txt`, 'psst');
        const other = await bob.client.storage.from('private').download(`${alice.id}/secret.txt`);
        expect(other.error).toMatchObject({ status: 400, statusCode: '404' });
        const anonDl = await anon.storage.from('private').download(`${alice.id}/secret.txt`);
        expect(anonDl.error).toMatchObject({ status: 400 });
        const bobWrite = await bob.client.storage.from('private').upload(`${alice.id}/evil.txt`, 'x');
        expect(bobWrite.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
        const bobList = await bob.client.storage.from('private').list(alice.id);
        expect(bobList.data).toEqual([]);
        const publicPrivate = await fetch(alice.client.storage.from('private').getPublicUrl(`${alice.id}/secret.txt`).data.publicUrl);
        expect(publicPrivate.status).toBe(400);
        expect(await publicPrivate.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' });
      });

      it('an anonymous or ordinary user cannot write an admin-only bucket; an admin can', async () => {
        for (const client of [anon, alice.client]) {
          const { error } = await client.storage.from('admin-only').upload('banner.png', png(10), { contentType: 'image/png' });
          expect(error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });
        }
        expect(
          (await admin.client.storage.from('admin-only').upload('banner.png', png(10), { contentType: 'image/png' })).error,
        ).toBeNull();
        // An ordinary user can neither overwrite, move nor delete it.
        const over = await alice.client.storage.from('admin-only').upload('banner.png', png(5), { upsert: true, contentType: 'image/png' });
        expect(over.error).toMatchObject({ statusCode: '403' });
        const moved = await alice.client.storage.from('admin-only').move('banner.png', 'stolen.png');
        expect(moved.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
        const removed = await alice.client.storage.from('admin-only').remove(['banner.png']);
        expect(removed).toEqual({ data: [], error: null });
        const publicRead = await fetch(anon.storage.from('admin-only').getPublicUrl('banner.png').data.publicUrl);
        expect(publicRead.status).toBe(200);
        expect(Buffer.from(await publicRead.arrayBuffer())).toEqual(png(10));
      });

      it('serves public objects with their headers and as a download', async () => {
        const body = png(2048);
        expect(
          (await admin.client.storage.from('images').upload('berths/b1.png', body, { contentType: 'image/png', cacheControl: '60' })).error,
        ).toBeNull();
        const url = anon.storage.from('images').getPublicUrl('berths/b1.png').data.publicUrl;
        expect(url).toBe(`${stack.url}/storage/v1/object/public/images/berths/b1.png`);
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(res.headers.get('content-length')).toBe('2048');
        expect(res.headers.get('cache-control')).toBe('max-age=60');
        expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
        expect(Buffer.from(await res.arrayBuffer())).toEqual(body);
        const dl = await fetch(anon.storage.from('images').getPublicUrl('berths/b1.png', { download: 'Liegeplatz.png' }).data.publicUrl);
        expect(dl.headers.get('content-disposition')).toBe("attachment; filename=Liegeplatz.png; filename*=UTF-8''Liegeplatz.png");
        const ranged = await fetch(url, { headers: { range: 'bytes=0-7' } });
        expect(ranged.status).toBe(206);
        expect(Buffer.from(await ranged.arrayBuffer())).toEqual(body.subarray(0, 8));
        // Authenticated download of a public bucket's object works for anyone, too.
        const viaAnon = await anon.storage.from('images').download('berths/b1.png');
        expect(viaAnon.data!.size).toBe(2048);
        const missing = await fetch(anon.storage.from('images').getPublicUrl('berths/none.png').data.publicUrl);
        expect(missing.status).toBe(400);
        expect(await missing.json()).toEqual({ statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' });
      });

      it('lists with prefix, limit, offset, sortBy and search, folders first-class', async () => {
        const s = service.storage.from('private');
        const base = `list-${randomUUID().slice(0, 8)}`;
        for (const name of ['b.txt', 'a.txt', 'C.txt', 'sub/x.txt', 'sub/y.txt', 'other/z.txt']) {
          expect((await s.upload(`${base}/${name}`, name)).error).toBeNull();
        }
        const all = await s.list(base);
        expect(all.error).toBeNull();
        expect(all.data!.map((e) => e.name)).toEqual(['a.txt', 'b.txt', 'C.txt', 'other', 'sub']);
        const folder = all.data!.find((e) => e.name === 'sub')!;
        expect(folder).toEqual({ name: 'sub', id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
        const file = all.data!.find((e) => e.name === 'a.txt')!;
        expect(file.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(file.metadata).toMatchObject({ size: 5, mimetype: 'text/plain;charset=UTF-8' });
        expect((await s.list(base, { limit: 2, offset: 1 })).data!.map((e) => e.name)).toEqual(['b.txt', 'C.txt']);
        expect((await s.list(base, { sortBy: { column: 'name', order: 'desc' } })).data!.map((e) => e.name)).toEqual([
          'sub',
          'other',
          'C.txt',
          'b.txt',
          'a.txt',
        ]);
        expect((await s.list(base, { search: 'b' })).data!.map((e) => e.name)).toEqual(['b.txt']);
        expect((await s.list(`${base}/sub`)).data!.map((e) => e.name)).toEqual(['x.txt', 'y.txt']);
        const byCreated = await s.list(base, { sortBy: { column: 'created_at', order: 'asc' } });
        expect(byCreated.data!.map((e) => e.name)).toEqual(['other', 'sub', 'b.txt', 'a.txt', 'C.txt']);
      });

      it('moves and copies within and across buckets, and removes in a batch', async () => {
        const s = alice.client.storage.from('private');
        await s.upload(`${alice.id}/move-me.txt`, 'moving');
        expect(await s.move(`${alice.id}/move-me.txt`, `${alice.id}/moved/here.txt`)).toEqual({
          data: { message: 'Successfully moved' },
          error: null,
        });
        expect((await s.download(`${alice.id}/move-me.txt`)).error).toMatchObject({ statusCode: '404' });
        expect(await (await s.download(`${alice.id}/moved/here.txt`)).data!.text()).toBe('moving');
        expect(await s.copy(`${alice.id}/moved/here.txt`, `${alice.id}/copy.txt`)).toEqual({
          data: { path: `private/${alice.id}/copy.txt` },
          error: null,
        });
        expect(await (await s.download(`${alice.id}/copy.txt`)).data!.text()).toBe('moving');
        const across = await s.copy(`${alice.id}/copy.txt`, `${alice.id}/copied.txt`, { destinationBucket: 'tiny' });
        expect(across.error).toBeNull();
        expect(await (await alice.client.storage.from('tiny').download(`${alice.id}/copied.txt`)).data!.text()).toBe('moving');
        const dupCopy = await s.copy(`${alice.id}/copy.txt`, `${alice.id}/moved/here.txt`);
        expect(dupCopy.error).toMatchObject({ statusCode: '409' });
        const removed = await s.remove([`${alice.id}/copy.txt`, `${alice.id}/moved/here.txt`, `${alice.id}/never.txt`]);
        expect(removed.error).toBeNull();
        expect(removed.data!.map((o) => o.name).sort()).toEqual([`${alice.id}/copy.txt`, `${alice.id}/moved/here.txt`]);
        expect((await s.download(`${alice.id}/copy.txt`)).error).toMatchObject({ statusCode: '404' });
        const { rows } = await stack.db.query(`select 1 from storage.objects where bucket_id = 'private' and name = $1`, [
          `${alice.id}/copy.txt`,
        ]);
        expect(rows).toEqual([]);
      });

      it('signs download URLs (single and many) as JWTs with the stack secret, honouring expiry', async () => {
        const s = alice.client.storage.from('private');
        await s.upload(`${alice.id}/signed.txt`, 'signed content');
        const signed = await s.createSignedUrl(`${alice.id}/signed.txt`, 60, { download: true });
        expect(signed.error).toBeNull();
        const url = new URL(signed.data!.signedUrl);
        expect(url.pathname).toBe(`/storage/v1/object/sign/private/${alice.id}/signed.txt`);
        const token = url.searchParams.get('token')!;
        const { payload } = await jwtVerify(token, new TextEncoder().encode(stack.keys.jwtSecret));
        expect(payload).toMatchObject({ url: `private/${alice.id}/signed.txt`, scope: 'download' });
        expect(payload.exp! - payload.iat!).toBe(60);
        const res = await fetch(signed.data!.signedUrl);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-disposition')).toBe('attachment;');
        expect(await res.text()).toBe('signed content');
        // A token for one object does not open another.
        const other = await fetch(`${stack.url}/storage/v1/object/sign/private/${alice.id}/notes.txt?token=${token}`);
        expect(await other.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
        // Bob may not sign what he cannot read.
        expect((await bob.client.storage.from('private').createSignedUrl(`${alice.id}/signed.txt`, 60)).error).toMatchObject({
          statusCode: '404',
        });
        const many = await s.createSignedUrls([`${alice.id}/signed.txt`, `${alice.id}/none.txt`], 60);
        expect(many.error).toBeNull();
        expect(many.data![0]).toMatchObject({ path: `${alice.id}/signed.txt`, error: null });
        expect(await (await fetch(many.data![0].signedUrl!)).text()).toBe('signed content');
        expect(many.data![1]).toEqual({
          path: `${alice.id}/none.txt`,
          error: 'Either the object does not exist or you do not have access to it',
          signedURL: null,
          signedUrl: null,
        });
        const short = await s.createSignedUrl(`${alice.id}/signed.txt`, 1);
        await new Promise((r) => setTimeout(r, 2100));
        const expired = await fetch(short.data!.signedUrl);
        expect(expired.status).toBe(400);
        expect(await expired.json()).toMatchObject({
          statusCode: '400',
          code: 'InvalidJWT',
          message: '"exp" claim timestamp check failed',
        });
        const badExpiry = await s.createSignedUrl(`${alice.id}/signed.txt`, 0);
        expect(badExpiry.error).toMatchObject({ statusCode: '400', message: 'Invalid Parameter expiresIn' });
      });

      it('signed upload URLs let anyone holding the token upload once, as the signer', async () => {
        const s = alice.client.storage.from('private');
        const up = await s.createSignedUploadUrl(`${alice.id}/via-signed.png`);
        expect(up.error).toBeNull();
        expect(up.data!.signedUrl).toContain(`/storage/v1/object/upload/sign/private/${alice.id}/via-signed.png?token=`);
        expect(decodeJwt(up.data!.token)).toMatchObject({ owner: alice.id, upsert: false, scope: 'upload' });
        const done = await anon.storage
          .from('private')
          .uploadToSignedUrl(`${alice.id}/via-signed.png`, up.data!.token, png(64), { contentType: 'image/png' });
        expect(done.error).toBeNull();
        expect(done.data).toMatchObject({ path: `${alice.id}/via-signed.png`, fullPath: `private/${alice.id}/via-signed.png` });
        expect((await s.download(`${alice.id}/via-signed.png`)).data!.size).toBe(64);
        const again = await anon.storage.from('private').uploadToSignedUrl(`${alice.id}/via-signed.png`, up.data!.token, png(64));
        expect(again.error).toMatchObject({ statusCode: '409' });
        const bobSign = await bob.client.storage.from('private').createSignedUploadUrl(`${alice.id}/bob.png`);
        expect(bobSign.error).toMatchObject({ statusCode: '403' });
      });
    });

    describe('limits', () => {
      it('refuses an object over the bucket size limit with Storage’s 413 body (raw and multipart)', async () => {
        const token = await stack.context.jwt.sign({ sub: alice.id, role: 'authenticated' }, 600);
        const res = await raw(stack, 'POST', `/storage/v1/object/tiny/${alice.id}/big.png`, png(2048), {
          authorization: `Bearer ${token}`,
          'content-type': 'image/png',
        });
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body)).toEqual({
          statusCode: '413',
          code: 'EntityTooLarge',
          error: 'Payload too large',
          message: 'The object exceeded the maximum allowed size',
        });
        const multi = await alice.client.storage.from('tiny').upload(`${alice.id}/big2.png`, new Blob([png(4096)], { type: 'image/png' }));
        expect(multi.error).toMatchObject({ status: 400, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
        expect(
          (await alice.client.storage.from('tiny').upload(`${alice.id}/ok.png`, png(1000), { contentType: 'image/png' })).error,
        ).toBeNull();
        const { rows } = await stack.db.query(`select name from storage.objects where bucket_id = 'tiny' and name like '%big%'`);
        expect(rows).toEqual([]);
      });

      it('refuses a MIME type the bucket does not allow with Storage’s 415 body', async () => {
        const res = await alice.client.storage
          .from('tiny')
          .upload(`${alice.id}/doc.pdf`, Buffer.from('%PDF'), { contentType: 'application/pdf' });
        expect(res.error).toMatchObject({ status: 400, statusCode: '415', message: 'mime type application/pdf is not supported' });
        const token = await stack.context.jwt.sign({ sub: alice.id, role: 'authenticated' }, 600);
        const rawRes = await raw(stack, 'POST', `/storage/v1/object/images/x.gif`, Buffer.from('GIF89a'), {
          authorization: `Bearer ${token}`,
          'content-type': 'image/gif',
        });
        expect(JSON.parse(rawRes.body)).toEqual({
          statusCode: '415',
          code: 'InvalidMimeType',
          error: 'invalid_mime_type',
          message: 'mime type image/gif is not supported',
        });
        // Wildcards in allowed_mime_types work as in Storage.
        expect((await alice.client.storage.from('tiny').upload(`${alice.id}/t.txt`, 'hi', { contentType: 'text/plain' })).error).toBeNull();
      });

      it('refuses names that could escape the storage directory', async () => {
        const token = await stack.context.jwt.sign({ sub: alice.id, role: 'authenticated' }, 600);
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'text/plain' };
        const marker = `escape-${randomUUID().slice(0, 8)}`;
        const attempts = [
          `/storage/v1/object/private/${alice.id}/..%2F..%2F..%2F${marker}`,
          `/storage/v1/object/private/${alice.id}%2F..%2F..%2F${marker}`,
          `/storage/v1/object/private/%2Fetc%2F${marker}`,
          `/storage/v1/object/private/${alice.id}/a%00b`,
          `/storage/v1/object/private/${alice.id}/..%5C..%5C${marker}`,
          `/storage/v1/object/private/${alice.id}/${'n'.repeat(300)}`,
          `/storage/v1/object/private/${alice.id}/${'d/'.repeat(520)}x`,
        ];
        for (const path of attempts) {
          const res = await raw(stack, 'POST', path, 'x', headers);
          expect(res.status, path).toBe(400);
          expect(JSON.parse(res.body), path).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
        }
        const moved = await alice.client.storage.from('private').move(`${alice.id}/secret.txt`, `../../${marker}`);
        expect(moved.error).toMatchObject({ statusCode: '400', message: `Invalid key: ../../${marker} contains dot path segment` });
        const copied = await service.storage.from('private').copy(`${alice.id}/secret.txt`, `${alice.id}/../../../${marker}`);
        expect(copied.error).toMatchObject({ statusCode: '400' });
        const bucketEscape = await raw(stack, 'GET', `/storage/v1/object/public/..%2F..%2F/${marker}`, undefined, headers);
        expect(bucketEscape.status).toBe(400);
        // Nothing landed outside: not in the project's temp dir, nor in the system temp dir.
        const found = (root: string): boolean =>
          existsSync(root) &&
          readdirSync(root, { withFileTypes: true }).some(
            (e) =>
              e.name.includes(marker) ||
              (e.isDirectory() && !e.name.startsWith('hafen-storage-') && root === dir && found(join(root, e.name))),
          );
        expect(found(dir)).toBe(false);
        expect(readdirSync(tmpdir()).some((n) => n.includes(marker))).toBe(false);
      });
    });
  });
}
