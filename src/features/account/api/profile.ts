import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { env } from '@/lib/env';
import { Refused } from '@/lib/refused';

async function session() {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  if (!data.session) throw Object.assign(new Error('not signed in'), { status: 401 });
  return { supabase, session: data.session };
}

/** A failed avatar upload: `tooLarge` when the storage server refused the size (413). */
export class UploadError extends Error {
  constructor(public status: number) {
    super(`upload failed (${status})`);
  }
}

/**
 * Uploads the avatar into the private `avatars` bucket, in the folder named by the user id (the
 * storage policy allows only that), reporting progress 0..1. supabase-js's upload has no
 * progress events, so this is the same request (POST /storage/v1/object, x-upsert) by XHR.
 * Then the profile points to it.
 */
export async function uploadAvatar(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const { supabase, session: s } = await session();
  const path = `${s.user.id}/avatar`;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${env.supabaseUrl}/storage/v1/object/avatars/${path}`);
    xhr.setRequestHeader('authorization', `Bearer ${s.access_token}`);
    xhr.setRequestHeader('apikey', env.supabaseKey);
    xhr.setRequestHeader('x-upsert', 'true');
    xhr.setRequestHeader('content-type', file.type);
    xhr.setRequestHeader('cache-control', 'max-age=3600');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new UploadError(xhr.status)));
    xhr.onerror = () => reject(new UploadError(0));
    xhr.send(file);
  });
  onProgress(1);
  const { error } = await supabase.from('profiles').update({ avatar_path: path }).eq('id', s.user.id);
  if (error) throw error;
  return path;
}

/**
 * Short-lived URLs of the (private) avatar, or null without one: `src` a 160x160 thumbnail by
 * Storage's image transformation (the signed token fixes it), `original` the file itself, for
 * a project with transformations switched off.
 */
export const avatarUrlQueryOptions = (path: string | null | undefined) =>
  queryOptions({
    queryKey: ['avatar', path ?? null] as const,
    queryFn: async (): Promise<{ src: string; original: string } | null> => {
      if (!path) return null;
      const supabase = await getSupabase();
      const avatars = (await supabase.storage()).from('avatars');
      const [thumb, original] = await Promise.all([
        avatars.createSignedUrl(path, 3600, { transform: { width: 160, height: 160, resize: 'cover' } }),
        avatars.createSignedUrl(path, 3600),
      ]);
      if (original.error) return null;
      return { src: thumb.data?.signedUrl ?? original.data.signedUrl, original: original.data.signedUrl };
    },
    staleTime: 30 * 60_000,
  });

/**
 * Starts an e-mail change: GoTrue mails a code to the new address and (secure e-mail change,
 * config.toml double_confirm_changes) one to the current address.
 */
export async function requestEmailChange(email: string, locale: string) {
  const { supabase } = await session();
  const { error } = await supabase.auth.updateUser({ email, data: { locale } });
  if (error) throw error;
}

/**
 * Confirms the change with the code from the current address (skipped when already accepted)
 * and the one from the new address: verifyOtp type 'email_change'. Returns which half is done.
 */
export async function confirmEmailChange(
  current: string,
  next: string,
  codes: { codeCurrent: string; codeNew: string },
  currentDone: boolean,
): Promise<'current' | 'done'> {
  const supabase = await getSupabase();
  if (!currentDone) {
    const { data, error } = await supabase.auth.verifyOtp({ email: current, token: codes.codeCurrent, type: 'email_change' });
    if (error) throw Object.assign(error, { field: 'codeCurrent' as const });
    if (data.session) return 'done';
  }
  const { error } = await supabase.auth.verifyOtp({ email: next, token: codes.codeNew, type: 'email_change' });
  if (error) throw Object.assign(error, { field: 'codeNew' as const, currentDone: true });
  return 'done';
}

/** GDPR: everything stored about the caller (public.export_my_data) as a JSON file download. */
export async function downloadMyData(): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('export_my_data');
  if (error) throw error;
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `hafen-duesseldorf-meine-daten-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * GDPR: deletes the account (public.delete_my_account: future bookings cancelled, past orders kept
 * anonymised). The avatar goes first (storage objects are not the database's to delete), then
 * the session on this device.
 */
export async function deleteMyAccount(avatarPath: string | null | undefined): Promise<void> {
  const supabase = await getSupabase();
  if (avatarPath)
    await (
      await supabase.storage()
    )
      .from('avatars')
      .remove([avatarPath])
      .catch(() => undefined);
  const { error } = await supabase.rpc('delete_my_account');
  if (error) throw error;
  await supabase.auth.signOut({ scope: 'local' });
}

/**
 * Delete my account (deleteMyAccount); throws Refused<'last_admin'> for the last admin. On success
 * every cached query goes (signed out), then `then` runs (the page leaves) while still pending,
 * even if the card has unmounted meanwhile.
 */
export function useDeleteMyAccount(then: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (avatarPath: string | null | undefined) => {
      try {
        await deleteMyAccount(avatarPath);
      } catch (e) {
        if ((e as { message?: string }).message === 'last_admin') throw new Refused('last_admin');
        throw e;
      }
    },
    onSuccess: async () => {
      queryClient.clear();
      await then();
    },
  });
}
