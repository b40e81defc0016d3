import { getSupabase } from '@/lib/auth';
import { env } from '@/lib/env';

/** docs/architecture.md "Small things": JPEG, PNG or WebP up to 5 MB (the buckets say the same). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export type ImageBucket = 'news-images' | 'place-images' | 'additional-place-images';
export type UploadError = 'too_large' | 'wrong_type' | 'failed';

/** Checks a picked file before it is sent (the bucket checks again). */
export function checkImage(file: File): UploadError | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return 'wrong_type';
  if (file.size > IMAGE_MAX_BYTES) return 'too_large';
  return null;
}

/** The public address of an image in a public bucket. */
export function publicImageUrl(bucket: ImageBucket, path: string): string {
  return `${env.supabaseUrl}/storage/v1/object/public/${bucket}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Uploads a title image to `<folder>/title-<time>.<ext>` with progress (supabase-js' upload
 * has none, so this is the same Storage request over XMLHttpRequest). A new name per upload
 * keeps browsers from showing a cached older picture. Resolves with the stored path.
 */
export async function uploadImage(
  bucket: ImageBucket,
  folder: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ path: string } | { error: UploadError }> {
  const invalid = checkImage(file);
  if (invalid) return { error: invalid };
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) return { error: 'failed' };
  const path = `${folder}/title-${Date.now()}.${EXTENSIONS[file.type]}`;
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${env.supabaseUrl}/storage/v1/object/${bucket}/${path}`);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', env.supabaseKey);
    xhr.setRequestHeader('content-type', file.type);
    xhr.setRequestHeader('cache-control', 'max-age=3600');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        return resolve({ path });
      }
      // Storage answers 400 with its own statusCode in the body (413 too large, 415 wrong type).
      let status = '';
      try {
        status = String((JSON.parse(xhr.responseText) as { statusCode?: string }).statusCode ?? '');
      } catch {
        // not JSON: a generic failure
      }
      resolve({ error: status === '413' ? 'too_large' : status === '415' ? 'wrong_type' : 'failed' });
    };
    xhr.onerror = () => resolve({ error: 'failed' });
    xhr.send(file);
  });
}

/** Removes an image; a failure (missing file, network) is ignored, as spec section 8 says. */
export async function removeImage(bucket: ImageBucket, path: string | null | undefined): Promise<void> {
  if (!path) return;
  try {
    const supabase = await getSupabase();
    await (await supabase.storage()).from(bucket).remove([path]);
  } catch {
    // ignored on purpose
  }
}
