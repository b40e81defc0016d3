import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { formatDay } from '@/lib/dates';
import { errorCode, lookupErrorMessage, type CodesFor, type ErrorMessageOptions } from '@/lib/errors/codes';

/**
 * The error catalogue's texts a guest can meet (codes with audience `guest` in ./codes.ts), and
 * the generic message. Lingui catalogue `booking` (lingui.config.ts `shared`): loaded on every page
 * but /start, staff pages included. Staff pages may word a code differently where the rule differs
 * for staff (./staff-messages.ts `STAFF_WORDINGS`).
 */
export const GUEST_ERROR_MESSAGES: Record<CodesFor<'guest'>, MessageDescriptor> = {
  absence_in_past: msg`Eine Abwesenheit kann nicht in der Vergangenheit beginnen, und vergangene Nächte lassen sich nicht mehr ändern.`,
  absence_nights_let: msg`Einige Nächte dieser Abwesenheit sind schon an Gäste vergeben; Ihre Abwesenheit muss sie weiter einschließen.`,
  absence_not_found: msg`Diese Abwesenheit gibt es nicht (mehr). Bitte laden Sie die Seite neu.`,
  absence_outside_contract: msg`Die Abwesenheit muss innerhalb Ihrer Vertragszeit liegen.`,
  absence_overlaps: msg`Für diese Nächte ist schon eine Abwesenheit eingetragen. Bitte ändern Sie die bestehende.`,
  account_inactive: msg`Ihr Konto ist gesperrt. Bitte wenden Sie sich an das Hafenbüro.`,
  account_required: msg`Bitte melden Sie sich zuerst an.`,
  already_checked_in: msg`Sie sind bereits eingecheckt.`,
  berth_no_longer_available: msg`Dieser Liegeplatz ist inzwischen vergeben. Bitte wählen Sie einen anderen.`,
  berth_too_shallow: msg`Dieser Liegeplatz ist beim vorhergesagten Rheinpegel zu flach für den Tiefgang Ihres Bootes. Bitte wählen Sie einen anderen.`,
  beyond_booking_horizon: msg`Dieser Zeitraum liegt nach dem Buchungszeitraum und ist noch nicht buchbar.`,
  boat_does_not_fit: msg`Das Boot passt nicht auf diesen Liegeplatz.`,
  check_in_not_possible: msg`Einchecken ist nur am Anreisetag möglich.`,
  holder_not_found: msg`Diese Langzeitbelegung gibt es nicht (mehr).`,
  contract_not_active: msg`Dieser Vertrag ist bereits gekündigt oder beendet.`,
  contract_text_changed: msg`Der Vertragstext hat sich geändert, seit Sie ihn geöffnet haben (z. B. neue Vertragsbedingungen). Bitte lesen Sie den aktuellen Text und nehmen Sie ihn erneut an.`,
  day_guests_only: msg`Dieser Liegeplatz ist nur für Tagesgäste.`,
  day_stay_not_allowed: msg`Dieser Liegeplatz ist nicht für Tagesgäste.`,
  fee_not_found: msg`Zu diesem Vertrag gibt es keine Liegeplatzgebühren (mehr), die per Lastschrift bezahlt werden.`,
  fee_overdue_access_withheld: msg`Türcode und WLAN sind gesperrt, weil eine Liegeplatzgebühr überfällig ist. Bitte zahlen Sie den offenen Betrag; danach werden sie wieder angezeigt.`,
  harbour_closed: msg`An mindestens einem Tag Ihres Aufenthalts ist der Hafen geschlossen (Hochwasser oder vom Hafen gesperrt). Bitte wählen Sie andere Tage.`,
  holding_not_found: msg`Dieser Langzeitliegeplatz gehört nicht (mehr) zu Ihrem Konto.`,
  invalid_boat: msg`Die Angaben zum Boot sind nicht gültig. Bitte prüfen Sie Name, Länge und Breite.`,
  invalid_boat_draught: msg`Der Tiefgang muss zwischen 0,1 und 5 m liegen.`,
  invalid_boat_length: msg`Die Bootslänge muss zwischen 1 und 60 m liegen.`,
  invalid_boat_name: msg`Der Bootsname hat 1 bis 60 Zeichen.`,
  invalid_boat_width: msg`Die Bootsbreite muss zwischen 0,5 und 15 m liegen.`,
  invalid_day_window: msg`Ein Tagesliegeplatz ist ein Zeitfenster von höchstens 5 Stunden zwischen 08:00 und 22:00 Uhr.`,
  invalid_email: msg`E-Mail ist nicht gültig`,
  invalid_message: msg`Die Nachricht ist zu kurz oder zu lang.`,
  invalid_name: msg`Vor- und Nachname haben je 1 bis 100 Zeichen.`,
  invalid_period: msg`Der Zeitraum ist ungültig: das Ende liegt vor dem Anfang.`,
  invalid_phone: msg`Die Telefonnummer ist nicht gültig.`,
  invalid_sale_code: msg`Dieser Aktionscode ist nicht gültig.`,
  insurance_file_invalid: msg`Die Datei des Versicherungsnachweises fehlt oder wurde schon verwendet. Bitte laden Sie sie noch einmal hoch.`,
  insurance_insurer_invalid: msg`Der Name des Versicherers hat 1 bis 100 Zeichen.`,
  insurance_policy_invalid: msg`Die Policennummer hat 1 bis 60 Zeichen.`,
  insurance_valid_until_past: msg`„Gültig bis“ muss in der Zukunft liegen. Bitte laden Sie einen gültigen Nachweis hoch.`,
  last_admin: msg`Als letzter Admin können Sie Ihr Konto nicht löschen. Ernennen Sie zuerst einen weiteren Admin.`,
  notice_deadline_passed: msg`Die Kündigungsfrist für diesen Vertrag ist abgelaufen. Eine Kündigung ist online nicht mehr möglich; bitte wenden Sie sich an das Hafenbüro.`,
  notice_not_found: msg`Diese Nachricht zur Hafenschließung gehört nicht zu Ihrer Buchung.`,
  offer_berth_unavailable: msg`Dieser Liegeplatz ist für die Saison inzwischen vergeben. Bitte wenden Sie sich an das Hafenbüro.`,
  offer_lapsed: msg`Die Frist für dieses Angebot ist abgelaufen. Bitte wenden Sie sich an das Hafenbüro.`,
  offer_not_found: msg`Dieses Angebot gibt es nicht, oder es ist nicht an Ihr Konto gerichtet. Bitte melden Sie sich mit der E-Mail-Adresse an, an die das Angebot ging.`,
  offer_not_open: msg`Dieses Angebot ist bereits beantwortet oder zurückgezogen.`,
  order_already_paid: msg`Diese Buchung ist bereits bezahlt.`,
  order_not_cancellable: msg`Diese Buchung kann nicht mehr storniert werden (nur vor der Anreise).`,
  order_not_found: msg`Diese Buchung ist hier nicht zu sehen. Bitte melden Sie sich mit der E-Mail-Adresse der Buchung an.`,
  order_not_open: msg`Diese Buchung ist bereits storniert oder abgeschlossen.`,
  order_not_payable: msg`Eine stornierte oder verfallene Buchung kann nicht mehr bezahlt werden.`,
  outside_fair_period: msg`Messe-Liegeplätze sind nur innerhalb eines Messezeitraums buchbar.`,
  payment_desk_only: msg`Diese Buchung wird im Hafenbüro bezahlt, nicht online.`,
  payment_method_invalid: msg`Bitte wählen Sie SEPA-Lastschrift oder Überweisung.`,
  payment_plan_invalid: msg`Bitte wählen Sie eine Zahlung in 1, 2 oder 4 Raten.`,
  period_in_past: msg`Der Zeitraum liegt in der Vergangenheit.`,
  place_not_found: msg`Diesen Liegeplatz gibt es nicht.`,
  registration_mark_invalid: msg`Das Kennzeichen hat 2 bis 30 Zeichen: Buchstaben, Ziffern, Leerzeichen, Punkt, Bindestrich oder Schrägstrich.`,
  sale_code_not_checked: msg`Bitte lösen Sie den Aktionscode zuerst mit „Einlösen“ ein und buchen Sie dann.`,
  sale_code_throttled: msg`Zu viele falsche Aktionscodes. Bitte versuchen Sie es in 15 Minuten noch einmal.`,
  sale_code_throttled_network: msg`Aus Ihrem Netzwerk wurden zu viele falsche Aktionscodes eingegeben. Bitte versuchen Sie es in einer Stunde noch einmal.`,
  sign_in_required: msg`Ihre Sitzung ist abgelaufen. Bitte laden Sie die Seite neu oder melden Sie sich an.`,
  stay_too_long: msg`Online buchbar sind höchstens 90 Nächte; für längere Zeiträume gibt es Langzeitliegeplätze`,
  too_many_applications: msg`Zu dieser E-Mail-Adresse gibt es bereits drei offene Bewerbungen.`,
  too_many_messages: msg`Zu viele Nachrichten in kurzer Zeit. Bitte versuchen Sie es später noch einmal.`,
  too_many_requests: msg`Zu viele Anfragen in kurzer Zeit. Bitte versuchen Sie es später noch einmal.`,
  too_many_unverified_orders: msg`Sie haben bereits drei unbestätigte Buchungen. Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.`,
  verification_required: msg`Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.`,
  verified_account_required: msg`Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.`,
  // edge functions (create-checkout) and the client
  database_unavailable: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht. Bitte versuchen Sie es gleich noch einmal.`,
  idempotency_conflict: msg`Die Zahlung wird gerade in einem anderen Fenster gestartet. Bitte warten Sie einen Moment und versuchen Sie es dann noch einmal.`,
  invalid_request: msg`Die Anfrage war ungültig. Bitte laden Sie die Seite neu und versuchen Sie es noch einmal.`,
  not_configured: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht. Bitte versuchen Sie es gleich noch einmal.`,
  not_found: msg`Diese Buchung ist hier nicht zu sehen. Bitte melden Sie sich mit der E-Mail-Adresse der Buchung an.`,
  not_signed_in: msg`Ihre Sitzung ist abgelaufen. Bitte laden Sie die Seite neu oder melden Sie sich an.`,
  nothing_to_pay: msg`Diese Buchung ist bereits bezahlt.`,
  payment_provider_error: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht. Bitte versuchen Sie es gleich noch einmal.`,
  network: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts abgebucht. Bitte versuchen Sie es gleich noch einmal.`,
  unauthorized: msg`Ihre Sitzung ist abgelaufen. Bitte laden Sie die Seite neu oder melden Sie sich an.`,
};

/** What anyone reads for an error without a text of its own (an internal code, an unknown failure). */
export const GENERIC_ERROR_MESSAGE = msg`Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.`;

/** A code whose text carries a value from the error (the booking horizon's last day, the first closed day in HINT). */
export function guestSpecial(error: unknown, options: ErrorMessageOptions = {}): string | undefined {
  const code = errorCode(error);
  if (code !== 'beyond_booking_horizon' && code !== 'harbour_closed') return undefined;
  const hint = (error as { hint?: unknown } | null)?.hint;
  if (typeof hint !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(hint)) return undefined;
  const active = options.i18n ?? i18n;
  const day = formatDay(hint, active.locale);
  return code === 'harbour_closed'
    ? active._(
        msg`Am ${day} ist der Hafen geschlossen (Hochwasser oder vom Hafen gesperrt). Für diesen Tag nehmen wir keine Buchungen an; bitte wählen Sie andere Tage.`,
      )
    : active._(msg`Online buchbar sind Aufenthalte bis ${day}. Spätere Zeiträume sind noch nicht freigegeben.`);
}

/**
 * The sentence a guest reads for an error, in the active language: the catalogue's text for its
 * code, else `fallback` or the generic message; never the server's raw text.
 */
export function errorMessage(error: unknown, options: ErrorMessageOptions = {}): string {
  return (
    guestSpecial(error, options) ??
    (options.i18n ?? i18n)._(lookupErrorMessage(error, GUEST_ERROR_MESSAGES, {}, options.fallback ?? GENERIC_ERROR_MESSAGE))
  );
}
