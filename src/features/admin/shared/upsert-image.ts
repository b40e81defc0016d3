import { getSupabase } from '@/lib/auth';
import { env } from '@/lib/env';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export type UploadError = 'too_large' | 'wrong_type' | 'failed';

/** Checks a chosen image against the buckets' limits (JPEG, PNG or WebP up to 5 MB). */
export function checkImage(file: File): UploadError | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'wrong_type';
  if (file.size > IMAGE_MAX_BYTES) return 'too_large';
  return null;
}

/**
 * Uploads (upserts) an image into a public bucket with progress (0-1). supabase-js has no
 * progress events, so this is the Storage API call it makes, over XMLHttpRequest.
 */
export async function uploadImage(
  bucket: string,
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadError | null> {
  const invalid = checkImage(file);
  if (invalid) return invalid;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) return 'failed';
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${env.supabaseUrl}/storage/v1/object/${bucket}/${path}`);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', env.supabaseKey);
    xhr.setRequestHeader('x-upsert', 'true');
    xhr.setRequestHeader('cache-control', 'max-age=60');
    xhr.setRequestHeader('content-type', file.type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(null);
      } else resolve(xhr.status === 413 ? 'too_large' : 'failed');
    };
    xhr.onerror = () => resolve('failed');
    xhr.send(file);
  });
}

/** Deletes an image; a missing image or a failure is ignored (spec: silently). */
export async function removeImageQuietly(bucket: string, path: string): Promise<void> {
  try {
    const supabase = await getSupabase();
    await (await supabase.storage()).from(bucket).remove([path]);
  } catch {
    // ignored on purpose
  }
}

/** The public URL of an image (with a version, so a replaced image is not served from cache). */
export const publicImageUrl = (bucket: string, path: string, version?: string) =>
  `${env.supabaseUrl}/storage/v1/object/public/${bucket}/${path}${version ? `?v=${encodeURIComponent(version)}` : ''}`;
