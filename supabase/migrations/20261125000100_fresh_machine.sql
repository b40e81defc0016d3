-- A fresh machine works (issue 18).
--
-- 1. Links in e-mails follow the app's real origin. The site URL is read like the project URL:
--    from Vault where a secret `site_url` exists (the local stack stores its app's address
--    there at every start, from config.toml [db.vault]; hosted: `select
--    vault.create_secret('https://…', 'site_url')`), else from private.app_settings.
-- 2. A cancelled or expired order is never marked paid: that issued an invoice for a stay that
--    does not take place. A trigger refuses it whoever writes (set_payment_status, a future
--    payment webhook, a staff function), with a message the app shows in the user's language.

-- ---------------------------------------------------------------- 1. site URL from Vault first
create or replace function private.queue_booking_confirmation(p_order public.orders)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_locale text := private.order_locale(p_order);
  v_en boolean := v_locale = 'en';
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_name text := btrim(concat_ws(' ', p_order.person ->> 'first_name', p_order.person ->> 'last_name'));
  v_place text := p_order.place_snapshot ->> 'name';
  v_net bigint := coalesce((p_order.price_breakdown ->> 'net_cents')::bigint, 0);
  v_vat bigint := coalesce((p_order.price_breakdown ->> 'vat_cents')::bigint, 0);
  v_subject text;
  v_body text;
begin
  if p_order.email is null or p_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_subject := case when v_en
    then format('Your booking at Hafen Düsseldorf: berth %s, %s', v_place, private.format_berlin(p_order.starts_at, 'en'))
    else format('Ihre Buchung im Hafen Düsseldorf: Liegeplatz %s, %s', v_place, private.format_berlin(p_order.starts_at, 'de')) end;
  v_body := concat_ws(E'\n',
    case when v_en then format('Hello %s,', v_name) else format('Guten Tag %s,', v_name) end,
    '',
    case when v_en then 'thank you for your booking. Your stay:' else 'vielen Dank für Ihre Buchung. Ihr Aufenthalt:' end,
    '',
    case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place
      || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (p_order.place_snapshot ->> 'pier') || ')', ''),
    case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(p_order.starts_at, v_locale),
    case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(p_order.ends_at, v_locale),
    case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(p_order.boat ->> 'name', '')
      || format(' (%s m × %s m)',
                case when v_en then p_order.boat ->> 'length' else replace(p_order.boat ->> 'length', '.', ',') end,
                case when v_en then p_order.boat ->> 'width' else replace(p_order.boat ->> 'width', '.', ',') end),
    '',
    case when v_en then 'Net: ' else 'Netto: ' end || private.format_eur(v_net, v_locale),
    case when v_en then 'VAT 19 %: ' else 'MwSt. 19 %: ' end || private.format_eur(v_vat, v_locale),
    case when v_en then 'Total: ' else 'Gesamt: ' end || private.format_eur(p_order.price_cents, v_locale),
    '',
    case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.id,
    case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id,
    case when p_order.status = 'unverified' then E'\n' || case when v_en
      then 'Please confirm your e-mail address within 24 hours (at the latest by your arrival): log in with your e-mail address and the code we send you, from any device. Otherwise the booking expires and the berth is released.'
      else 'Bitte bestätigen Sie Ihre E-Mail-Adresse innerhalb von 24 Stunden (spätestens bis zur Ankunft): Melden Sie sich mit Ihrer E-Mail-Adresse und dem Code an, den wir Ihnen senden – von jedem Gerät aus. Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.' end end,
    '',
    case when v_en then 'Check-in is possible on the arrival day.' else 'Der Check-in ist am Ankunftstag möglich.' end,
    '',
    case when v_en then 'Kind regards' else 'Mit freundlichen Grüßen' end,
    'Hafen Düsseldorf');
  return private.queue_mail(
    'booking_confirmation', p_order.email, v_locale, v_subject, v_body,
    jsonb_build_array(jsonb_build_object(
      'filename', case when v_en then 'booking-' else 'buchung-' end || v_place || '.ics',
      'content_type', 'text/calendar; charset=utf-8; method=PUBLISH',
      'content', private.booking_ics(p_order, v_locale))),
    private.setting('harbour_email'),
    p_order.id);
end
$$;
comment on function private.queue_booking_confirmation(public.orders) is 'Queues the booking confirmation (guest''s language, price with VAT, verification hint for guests, .ics of the stay).';
revoke all on function private.queue_booking_confirmation(public.orders) from public;

comment on function private.edge_setting(text) is 'project_url / anon_key / site_url for calling edge functions and linking to the app: from Vault where it exists, else private.app_settings.';

-- ---------------------------------------------------------------- 2. no payment for a stay that does not take place
create function private.orders_refuse_payment_when_ended()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.payment_status = 'paid' and old.payment_status = 'pending' and new.status in ('cancelled', 'expired') then
    raise exception 'order_not_payable' using errcode = 'P0001',
      hint = 'A cancelled or expired booking cannot be marked paid: it does not take place, so no invoice is issued for it.';
  end if;
  return new;
end
$$;
comment on function private.orders_refuse_payment_when_ended() is 'Refuses pending -> paid on a cancelled or expired order, whoever writes.';
revoke all on function private.orders_refuse_payment_when_ended() from public;
create trigger orders_refuse_payment_when_ended before update of payment_status on public.orders
  for each row execute function private.orders_refuse_payment_when_ended();
