import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { formatDay } from '@/lib/dates';

/** The message a person reads for an error raised by the booking functions. */
export function bookingErrorMessage(error: unknown): string {
  const message = (error as { message?: string } | null)?.message ?? '';
  switch (message) {
    case 'berth_no_longer_available':
      return t`Dieser Liegeplatz ist inzwischen vergeben. Bitte wählen Sie einen anderen.`;
    case 'period_in_past':
      return t`Der Zeitraum liegt in der Vergangenheit.`;
    case 'beyond_booking_horizon': {
      const hint = (error as { hint?: string } | null)?.hint ?? '';
      if (/^\d{4}-\d{2}-\d{2}$/.test(hint)) {
        const day = formatDay(hint, i18n.locale);
        return t`Online buchbar sind Aufenthalte bis ${day}. Spätere Zeiträume sind noch nicht freigegeben.`;
      }
      return t`Dieser Zeitraum liegt nach dem Buchungszeitraum und ist noch nicht buchbar.`;
    }
    case 'outside_fair_period':
      return t`Messe-Liegeplätze sind nur innerhalb eines Messezeitraums buchbar.`;
    case 'invalid_day_window':
      return t`Ein Tagesliegeplatz ist ein Zeitfenster von höchstens 5 Stunden zwischen 08:00 und 22:00 Uhr.`;
    case 'stay_too_long':
      return t`Online buchbar sind höchstens 90 Nächte; für längere Zeiträume gibt es Langzeitliegeplätze`;
    case 'invalid_sale_code':
      return t`Dieser Aktionscode ist nicht gültig.`;
    case 'sale_code_not_checked':
      // create_booking takes a code only after the session applied it (quote_booking); the page always does.
      return t`Bitte lösen Sie den Aktionscode zuerst mit „Einlösen“ ein und buchen Sie dann.`;
    case 'sale_code_throttled':
      return t`Zu viele falsche Aktionscodes. Bitte versuchen Sie es in 15 Minuten noch einmal.`;
    case 'sale_code_throttled_network':
      return t`Aus Ihrem Netzwerk wurden zu viele falsche Aktionscodes eingegeben. Bitte versuchen Sie es in einer Stunde noch einmal.`;
    case 'too_many_unverified_orders':
      return t`Sie haben bereits drei unbestätigte Buchungen. Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.`;
    case 'account_inactive':
      return t`Ihr Konto ist gesperrt. Bitte wenden Sie sich an das Hafenbüro.`;
    case 'boat_does_not_fit':
      return t`Das Boot passt nicht auf diesen Liegeplatz.`;
    case 'day_stay_not_allowed':
      return t`Dieser Liegeplatz ist nicht für Tagesgäste.`;
    case 'day_guests_only':
      return t`Dieser Liegeplatz ist nur für Tagesgäste.`;
    case 'invalid_email':
      return t`E-Mail ist nicht gültig`;
    default:
      return t`Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.`;
  }
}
