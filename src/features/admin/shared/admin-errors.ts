import { t } from '@lingui/core/macro';

/** A Supabase (PostgREST or Storage) error as the API returns it. */
export interface ApiError {
  code?: string;
  message?: string;
}

/**
 * The message an admin sees for a refused write: the named database errors of the admin
 * functions and triggers first, then by SQLSTATE. Never the raw server text.
 */
export function adminErrorMessage(error: unknown): string {
  const e = (error ?? {}) as ApiError;
  switch (e.message) {
    case 'cannot_remove_own_admin':
      return t`Sie können sich die Admin-Rolle nicht selbst entziehen. Das muss ein anderer Admin tun.`;
    case 'cannot_deactivate_self':
      return t`Sie können Ihr eigenes Konto nicht deaktivieren. Das muss ein anderer Admin tun.`;
    case 'user_not_found':
      return t`Diesen Benutzer gibt es nicht (mehr).`;
    case 'admin_required':
      return t`Dafür fehlen Ihnen die Rechte.`;
    case 'mfa_enrol_first':
      return t`Damit würden Sie sich selbst die Rechte nehmen: Richten Sie zuerst in Ihrem Profil die Zwei-Faktor-Anmeldung ein und melden Sie sich damit an.`;
  }
  switch (e.code) {
    case '23505':
      return t`Diesen Eintrag gibt es schon.`;
    case '23514':
    case '22P02':
    case '22007':
    case '22008':
    case '22023':
    case '23502':
      return t`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`;
    case '42501':
      return t`Dafür fehlen Ihnen die Rechte.`;
    case 'PGRST116':
      return t`Der Eintrag wurde nicht gefunden.`;
  }
  return t`Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.`;
}

/** Throws the error of a Supabase result (keeping code and message), else returns its data. */
export function check<T>(result: { data: T; error: ApiError | null }): T {
  if (result.error) throw Object.assign(new Error(result.error.message ?? 'error'), { code: result.error.code });
  return result.data;
}

/** A row id as the database writes it; anything else in a URL is simply not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** check() for list answers: an absent list is an empty one. */
export function checkList<T>(result: { data: T[] | null; error: ApiError | null }): T[] {
  return check(result) ?? [];
}
