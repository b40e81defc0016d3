import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { env } from '@/lib/env';
import { Refused } from '@/lib/refused';
import { certificateFileProblem } from '@/features/account/schemas/insurance';

/**
 * A long-term holder's insurance certificates and registration mark (issue 42 item 3, ADR 0050).
 * The file goes into the private bucket `insurance-certificates`, folder = the holding's id (the
 * storage policy allows only the holder's own current or coming holdings); then
 * `add_insurance_certificate` records insurer, policy number and "valid until" (the database
 * checks them again, and that the file is there).
 */
export const CERTIFICATE_BUCKET = 'insurance-certificates';
const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export type Certificate = Pick<
  Tables<'holder_insurance_certificates'>,
  'id' | 'holder_id' | 'insurer' | 'policy_number' | 'valid_until' | 'file_path' | 'created_at'
>;

export const insuranceKeys = { all: ['long-term', 'insurance'] as const };

/** The holding's certificates (RLS: own holdings), newest "valid until" first. */
export const certificatesQueryOptions = (holderId: string) =>
  queryOptions({
    queryKey: [...insuranceKeys.all, holderId] as const,
    queryFn: async (): Promise<Certificate[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('holder_insurance_certificates')
        .select('id, holder_id, insurer, policy_number, valid_until, file_path, created_at')
        .eq('holder_id', holderId)
        .order('valid_until', { ascending: false })
        .order('created_at', { ascending: false });
      if (error) throw error;
      return data;
    },
  });

/**
 * Uploads the file to `<holderId>/<time>-<random>.<ext>` with progress (supabase-js's upload has
 * none, so this is the same Storage request over XMLHttpRequest). Never overwrites: each
 * certificate keeps its own file.
 */
async function uploadCertificate(holderId: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  const problem = certificateFileProblem(file);
  if (problem) throw new Refused(problem);
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Refused('upload_failed');
  const path = `${holderId}/${Date.now()}-${Math.random().toString(36).slice(2, 8)}.${EXTENSIONS[file.type]}`;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${env.supabaseUrl}/storage/v1/object/${CERTIFICATE_BUCKET}/${path}`);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', env.supabaseKey);
    xhr.setRequestHeader('content-type', file.type);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      // Storage answers 400 with its own statusCode in the body (413 too large, 415 wrong type).
      let status = String(xhr.status);
      try {
        status = String((JSON.parse(xhr.responseText) as { statusCode?: string }).statusCode ?? status);
      } catch {
        // not JSON: the HTTP status
      }
      reject(new Refused(status === '413' ? 'too_large' : status === '415' ? 'wrong_type' : 'upload_failed'));
    };
    xhr.onerror = () => reject(new Refused('upload_failed'));
    xhr.send(file);
  });
  onProgress(1);
  return path;
}

export interface NewCertificate {
  holderId: string;
  insurer: string;
  policyNumber: string;
  validUntil: string;
  file: File;
}

/**
 * Upload the certificate, then record it. A refusal before the database is a `Refused`
 * (UploadProblem); the database's refusals keep their catalogue code (src/lib/errors).
 */
export function useAddInsuranceCertificate(onProgress: (fraction: number | undefined) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: NewCertificate) => {
      onProgress(0);
      try {
        const path = await uploadCertificate(v.holderId, v.file, onProgress);
        const supabase = await getSupabase();
        const { error } = await supabase.rpc('add_insurance_certificate', {
          p_holder_id: v.holderId,
          p_insurer: v.insurer,
          p_policy_number: v.policyNumber,
          p_valid_until: v.validUntil,
          p_file_path: path,
        });
        if (error) throw error;
      } finally {
        onProgress(undefined);
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: insuranceKeys.all }),
  });
}

/** Set the boat's registration mark of the holding (long_term_holders.boat_tag). */
export function useSetRegistrationMark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { holderId: string; mark: string }) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('set_registration_mark', { p_holder_id: v.holderId, p_mark: v.mark });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['long-term', 'holdings'] }),
  });
}

/** A short-lived link to a certificate file (private bucket). */
export async function certificateUrl(path: string): Promise<string | null> {
  const supabase = await getSupabase();
  const { data } = await (await supabase.storage()).from(CERTIFICATE_BUCKET).createSignedUrl(path, 300);
  return data?.signedUrl ?? null;
}
