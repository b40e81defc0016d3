import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { lookupErrorMessage, type CodesFor, type ErrorMessageOptions } from '@/lib/errors/codes';
import { GENERIC_ERROR_MESSAGE, GUEST_ERROR_MESSAGES, guestSpecial } from '@/lib/errors/guest-messages';

/**
 * The error catalogue's texts only staff meet (codes with audience `staff` in ./codes.ts). Lingui
 * catalogue `harbour` (lingui.config.ts): loaded under /account/admin, with every other catalogue.
 */
export const STAFF_ERROR_MESSAGES: Record<CodesFor<'staff'>, MessageDescriptor> = {
  additional_place_not_found: msg`Diesen Liegeplatz gibt es nicht (mehr).`,
  admin_only: msg`Dafür fehlen Ihnen die Rechte.`,
  application_not_found: msg`Diese Bewerbung gibt es nicht (mehr).`,
  application_not_open: msg`Diese Bewerbung ist nicht mehr offen.`,
  archive_range_too_long: msg`Ein Archiv umfasst höchstens ein Jahr (366 Tage). Bitte teilen Sie den Zeitraum auf.`,
  berth_already_held: msg`Der Liegeplatz hat in diesem Zeitraum schon einen Langzeitlieger.`,
  berth_has_bookings: msg`Der Liegeplatz ist in diesem Zeitraum gebucht. Bitte die Buchungen zuerst verlegen oder stornieren.`,
  berth_offer_open: msg`Für diesen Liegeplatz und diese Saison ist schon ein Angebot offen. Bitte zuerst zurückziehen.`,
  berth_renews: msg`Der Vertrag des Langzeitliegers verlängert sich in diese Saison. Frei wird der Liegeplatz erst mit seiner Kündigung oder wenn der Vertrag beendet wird.`,
  block_not_found: msg`Diese Sperre gibt es nicht (mehr).`,
  block_too_long: msg`Eine Sperre darf höchstens 400 Tage dauern.`,
  boat_size_invalid: msg`Bitte Länge (bis 100 m) und Breite (bis 30 m) des Bootes angeben.`,
  buyer_required: msg`Über 250 € braucht der Beleg Name und Anschrift des Käufers.`,
  cannot_deactivate_self: msg`Sie können Ihr eigenes Konto nicht deaktivieren. Das muss ein anderer Admin tun.`,
  cannot_remove_own_admin: msg`Sie können sich die Admin-Rolle nicht selbst entziehen. Das muss ein anderer Admin tun.`,
  cash_balance_negative: msg`So viel Bargeld ist nicht in der Kasse: Der Kassenbestand darf nicht unter 0 fallen.`,
  cash_day_closed: msg`Dieser Tag ist bereits abgeschlossen. Ein abgeschlossener Tag kann nicht mehr geändert werden.`,
  cash_day_invalid: msg`Dieser Tag kann noch nicht abgeschlossen werden (er liegt in der Zukunft).`,
  cash_later_day_open: msg`Nach diesem Tag wurde schon gebucht. Bitte den letzten Tag abschließen: Sein Kassenbericht umfasst die offenen Tage davor.`,
  checked_in_arrival_fixed: msg`Der Gast ist eingecheckt: die Anreise bleibt, nur die Abreise lässt sich ändern.`,
  contract_end_reason_invalid: msg`Bitte einen Grund angeben (höchstens 1000 Zeichen).`,
  contract_not_found: msg`Diesen Vertrag gibt es nicht (mehr).`,
  contract_status_invalid: msg`Ein Vertrag ist aktiv, gekündigt oder beendet.`,
  contract_terms_invalid: msg`Bitte die Vertragsbedingungen auf Deutsch und Englisch angeben (je höchstens 50.000 Zeichen).`,
  datev_range_fiscal_year: msg`Ein DATEV-Buchungsstapel umfasst höchstens ein Wirtschaftsjahr. Bitte exportieren Sie jedes Wirtschaftsjahr einzeln.`,
  datev_vat_rate: msg`Im Zeitraum gibt es Belege mit einem Steuersatz, für den kein Konto eingestellt ist (nur 19 %, 7 % und 0 %).`,
  deposit_needs_order: msg`Ein Pfand gehört an eine Buchung (dort wird die Rückgabe erfasst), nicht in einen Barverkauf.`,
  deposit_refund_not_failed: msg`Stripe hat die Erstattung auf die Karte nicht als fehlgeschlagen gemeldet. Bitte die Erstattung erneut anfordern oder die Meldung von Stripe abwarten.`,
  deposit_refund_online: msg`Ein online bezahltes Pfand geht über Stripe zurück.`,
  desk_sale_cancelled: msg`Dieser Verkauf ist schon storniert.`,
  extra_not_found: msg`Dieses Extra gibt es nicht (mehr) im Katalog.`,
  fee_cancelled: msg`Die Rechnung dieser Gebühr ist storniert (Vertrag beendet): es ist nichts mehr zu zahlen. Eine trotzdem eingegangene Überweisung wird zurückgezahlt, nicht als Zahlung erfasst.`,
  fee_debit_in_flight: msg`Für diese Gebühr läuft gerade eine Lastschrift. Bitte warten Sie deren Ergebnis ab, bevor Sie eine Überweisung erfassen.`,
  fee_not_overpaid: msg`Diese Gebühr ist nicht überzahlt: es ist nichts zurückzuzahlen.`,
  fee_repay_exceeds_overpaid: msg`So viel kann nicht zurückgezahlt werden: höchstens der überzahlte Betrag.`,
  gauge_thresholds_invalid: msg`Die Pegelgrenzen müssen zwischen 1 und 15 m liegen, „eingeschränkt“ unter „gesperrt“.`,
  holder_already_ended: msg`Diese Langzeitbelegung ist schon beendet.`,
  invalid_amount: msg`Der Betrag ist nicht gültig.`,
  invalid_cash_movement: msg`Diese Kassenbewegung gibt es nicht.`,
  invalid_items: msg`Bitte mindestens ein und höchstens 20 Extras wählen.`,
  invalid_note: msg`Die Notiz ist leer oder zu lang (an einer Zahlung höchstens 500, an einer Buchung höchstens 2000 Zeichen).`,
  invalid_payment_method: msg`Diese Zahlungsart ist hier nicht möglich.`,
  invalid_price: msg`Der Preis darf nur bei „ab“-Preisen erhöht werden, nie gesenkt.`,
  invalid_quantity: msg`Die Menge muss zwischen 1 und 99 liegen.`,
  invalid_query: msg`Der Suchbegriff ist zu lang (höchstens 100 Zeichen).`,
  invalid_range: msg`Der Zeitraum ist ungültig: Das Enddatum darf nicht vor dem Anfangsdatum liegen.`,
  invalid_reason: msg`Bitte einen Grund angeben (höchstens 500 Zeichen).`,
  invalid_refund_method: msg`Diese Erstattungsart ist hier nicht möglich.`,
  invalid_reply: msg`Eine Antwort hat 1 bis 5000 Zeichen.`,
  long_term_price_invalid: msg`Der Preis muss zwischen 0,01 € und 100.000 € liegen, die Strompauschale zwischen 0 € und 100.000 €.`,
  long_term_price_missing: msg`Für diese Saison gibt es noch keinen Preis. Bitte zuerst einen Preis für diese Saisonart anlegen.`,
  long_term_price_valid_from_past: msg`Eine Preisänderung gilt frühestens ab morgen: Eine schon begonnene Saison behält ihren Preis.`,
  message_not_found: msg`Diese Anfrage gibt es nicht.`,
  mfa_enrol_first: msg`Damit würden Sie sich selbst die Rechte nehmen: Richten Sie zuerst in Ihrem Profil die Zwei-Faktor-Anmeldung ein und melden Sie sich damit an.`,
  no_candidate: msg`Auf der Warteliste passt niemand mehr auf diesen Liegeplatz in dieser Saison.`,
  no_factor: msg`Diese Person hat keine Zwei-Faktor-Anmeldung eingerichtet.`,
  no_online_payment: msg`Diese Buchung hat keine Online-Zahlung. Bitte bar oder per Überweisung erstatten.`,
  not_a_deposit: msg`Nur ein Pfand wird zurückgegeben.`,
  not_allowed: msg`Dafür fehlen Ihnen die Rechte.`,
  not_staff: msg`Nur für das Hafenteam.`,
  note_too_long: msg`Eine Notiz hat höchstens 2000 Zeichen.`,
  nothing_to_refund: msg`Für diese Buchung ist nichts zu erstatten.`,
  offer_already_open: msg`Diese Person hat schon ein offenes Angebot.`,
  offer_boat_does_not_fit: msg`Das Boot dieser Bewerbung passt nicht auf den Liegeplatz.`,
  offer_deadline_invalid: msg`Die Antwortfrist liegt zwischen heute und 90 Tagen ab heute.`,
  offer_not_closed: msg`Nur ein abgelehntes, verfallenes oder zurückgezogenes Angebot geht einmal an den Nächsten.`,
  order_closed: msg`Eine stornierte oder verfallene Buchung nimmt keine Extras an.`,
  order_extra_closed: msg`Dieses Extra wurde schon entfernt oder zurückgegeben.`,
  order_extra_not_found: msg`Dieses Extra ist nicht an der Buchung.`,
  order_not_movable: msg`Diese Buchung kann nicht mehr umgelegt werden.`,
  order_not_refundable: msg`Ein abgeschlossener Aufenthalt wird nicht vollständig erstattet.`,
  payment_not_found: msg`Diese Zahlung gibt es nicht.`,
  place_has_orders: msg`Dieser Liegeplatz hat Buchungen und kann nicht gelöscht werden.`,
  range_too_long: msg`Ein Bericht umfasst höchstens drei Jahre. Bitte einen kürzeren Zeitraum wählen.`,
  reason_required: msg`Bitte einen Grund für die Stornierung angeben.`,
  receipt_not_found: msg`Diesen Beleg eines Verkaufs am Hafenbüro gibt es nicht.`,
  refund_exceeds_payment: msg`So viel kann nicht erstattet werden: Der Betrag ist höher als das, was von der Zahlung noch übrig ist.`,
  refund_online_payment: msg`Eine Online-Zahlung wird online über Stripe erstattet, nicht bar oder per Überweisung.`,
  renewal_no_next_season: msg`Für diese Saison ist noch keine nächste Saison derselben Art angelegt. Bitte zuerst die nächste Saison (und ihren Preis) anlegen.`,
  request_done: msg`Diese Anfrage ist schon erledigt.`,
  request_key_expired: msg`Diese Anfrage ist nicht mehr gültig. Bitte die Zahlungen der Buchung prüfen und die Erstattung neu eingeben.`,
  request_key_reused: msg`Diese Anfrage ist nicht mehr gültig. Bitte die Zahlungen der Buchung prüfen und die Erstattung neu eingeben.`,
  season_dates_invalid: msg`Das Saisonende muss nach dem Saisonbeginn liegen (höchstens zwei Jahre).`,
  season_in_use: msg`Auf diese Saison bezieht sich schon ein Vertrag: Ihre Daten bleiben, und sie kann nicht gelöscht werden. Nur die Namen lassen sich ändern.`,
  season_name_invalid: msg`Bitte der Saison einen Namen geben (höchstens 100 Zeichen).`,
  season_not_found: msg`Diese Saison gibt es nicht (mehr).`,
  season_over: msg`Diese Saison ist schon vorbei.`,
  season_overlap: msg`Diese Saison überschneidet sich mit einer anderen Saison derselben Art. Bitte die Daten prüfen.`,
  staff_only: msg`Nur für das Hafenteam.`,
  tariff_code_fixed: msg`Code und Einheit eines Tarifs bleiben immer gleich.`,
  user_not_found: msg`Diesen Benutzer gibt es nicht (mehr).`,
  vat_rate_invalid: msg`Als Mehrwertsteuersatz sind nur 19 %, 7 % oder 0 % möglich.`,
  // edge functions (refund-payment, invoice-archive) and Stripe's codes refund-payment passes on
  forbidden: msg`Nur für das Hafenteam.`,
  no_documents: msg`In diesem Zeitraum wurden keine Belege ausgestellt.`,
  refund_in_progress: msg`Diese Erstattung wird gerade angefordert. Bitte gleich noch einmal versuchen: Es wird nur einmal erstattet.`,
  amount_exceeds_refundable: msg`So viel kann nicht erstattet werden: Der Betrag ist höher als das, was von der Zahlung noch übrig ist.`,
  charge_already_refunded: msg`So viel kann nicht erstattet werden: Der Betrag ist höher als das, was von der Zahlung noch übrig ist.`,
};

/**
 * A guest code's staff wording, where the rule or the reader differs for staff (staff may move
 * or cancel after arrival, check in until departure, and read about refunds, not charges).
 */
export const STAFF_WORDINGS: Partial<Record<CodesFor<'guest'>, MessageDescriptor>> = {
  already_checked_in: msg`Der Gast ist bereits eingecheckt.`,
  berth_no_longer_available: msg`Der Liegeplatz ist in diesem Zeitraum schon belegt. Bitte einen anderen Liegeplatz wählen.`,
  berth_too_shallow: msg`Der Liegeplatz ist beim für diesen Aufenthalt vorhergesagten Rheinpegel zu flach für den Tiefgang des Bootes. Bitte einen anderen Liegeplatz wählen.`,
  check_in_not_possible: msg`Einchecken ist nur vom Anreisetag bis zur Abreise möglich.`,
  holding_not_found: msg`Diese Langzeitbelegung gehört nicht zu diesem Konto oder ist beendet.`,
  order_not_cancellable: msg`Diese Buchung kann nicht storniert werden.`,
  order_not_found: msg`Diese Buchung gibt es nicht.`,
  not_found: msg`Diese Buchung gibt es nicht.`,
  stay_too_long: msg`Ein Aufenthalt dauert höchstens 90 Nächte.`,
  network: msg`Keine Antwort vom Server. Bitte noch einmal versuchen: Zahlungen und Erstattungen werden dabei nur einmal gebucht.`,
  payment_provider_error: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts erstattet. Bitte später noch einmal versuchen.`,
  not_configured: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts erstattet. Bitte später noch einmal versuchen.`,
  database_unavailable: msg`Der Zahlungsdienst ist gerade nicht erreichbar. Es wurde nichts erstattet. Bitte später noch einmal versuchen.`,
  unauthorized: msg`Die Sitzung ist abgelaufen. Bitte neu anmelden.`,
  not_signed_in: msg`Die Sitzung ist abgelaufen. Bitte neu anmelden.`,
};

/** Staff's messages by SQLSTATE (PostgREST code) for an error without a catalogue code: a constraint, a type, RLS. */
export const STAFF_SQLSTATE_MESSAGES: Record<string, MessageDescriptor> = {
  '23505': msg`Diesen Eintrag gibt es schon.`,
  '23P01': msg`Der Liegeplatz ist in diesem Zeitraum schon belegt. Bitte einen anderen Liegeplatz wählen.`,
  '23514': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '22P02': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '22007': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '22008': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '22023': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '23502': msg`Die Eingaben sind nicht gültig. Bitte prüfen Sie die Felder.`,
  '42501': msg`Dafür fehlen Ihnen die Rechte.`,
  PGRST116: msg`Der Eintrag wurde nicht gefunden.`,
};

const STAFF_MESSAGES = { ...GUEST_ERROR_MESSAGES, ...STAFF_WORDINGS, ...STAFF_ERROR_MESSAGES };

/**
 * The sentence staff read for an error, in the active language: the catalogue's text for its code
 * (staff wording first), else by SQLSTATE, else `fallback` or the generic message; never the
 * server's raw text.
 */
export function staffErrorMessage(error: unknown, options: ErrorMessageOptions = {}): string {
  return (
    guestSpecial(error, options) ??
    (options.i18n ?? i18n)._(lookupErrorMessage(error, STAFF_MESSAGES, STAFF_SQLSTATE_MESSAGES, options.fallback ?? GENERIC_ERROR_MESSAGE))
  );
}
