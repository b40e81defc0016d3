import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { getSupabase } from '@/lib/auth';
import { formatEuro } from '@/lib/prices';
import { extrasCatalogueQueryOptions, useExtrasAction, useExtraName, useExtraUnitLabel } from '@/features/harbour/extras';
import { inboxKeys, type InboxMessage } from '@/features/harbour/inbox/api/inbox';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** Which catalogue entry a request's service suggests. */
const suggested: Record<string, string> = { washing_machine: 'washing_machine', boat_lift: 'boat_lift', ice: 'ice_2kg' };

/**
 * An open service request taken on as an extra: staff type the booking number, choose the extra
 * and the quantity; one action adds it to that booking and marks the request done
 * (accept_service_request, which checks staff and every value again).
 */
export function AcceptRequestForm({ message }: { message: InboxMessage }) {
  const { t, i18n } = useLingui();
  const nameOf = useExtraName();
  const unitLabel = useExtraUnitLabel();
  const queryClient = useQueryClient();
  const catalogue = useQuery(extrasCatalogueQueryOptions());
  const entries = (catalogue.data ?? []).filter((e) => e.active);
  const action = useExtrasAction();
  const [open, setOpen] = useState(false);
  const [booking, setBooking] = useState('');
  const [extraId, setExtraId] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const chosen = extraId || entries.find((e) => e.code === suggested[message.service ?? ''])?.id || '';
  if (!open) {
    return (
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        <Trans>Als Extra übernehmen</Trans>
      </Button>
    );
  }
  const submit = async () => {
    setError(null);
    const number = booking.trim().toUpperCase();
    if (!/^[A-Z0-9-]{4,20}$/.test(number)) return setError(t`Bitte die Buchungsnummer eintragen.`);
    if (!chosen) return setError(t`Bitte ein Extra wählen.`);
    if (!/^\d{1,2}$/.test(quantity.trim()) || Number(quantity) < 1) return setError(t`Die Menge muss zwischen 1 und 99 liegen.`);
    const supabase = await getSupabase();
    const found = await supabase.from('orders').select('id').eq('booking_number', number).maybeSingle();
    if (found.error || !found.data) return setError(t`Keine Buchung mit dieser Nummer.`);
    try {
      await action.mutateAsync({
        type: 'accept',
        messageId: message.id,
        orderId: found.data.id,
        extraId: chosen,
        quantity: Number(quantity),
      });
      await queryClient.invalidateQueries({ queryKey: inboxKeys.all });
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  };
  return (
    <form
      noValidate
      aria-label={t`Als Extra übernehmen`}
      className="mt-2 grid gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[9rem_minmax(0,1fr)_5rem_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="grid gap-1 text-sm">
        <Trans>Buchungsnummer</Trans>
        <Input value={booking} onChange={(e) => setBooking(e.target.value)} autoComplete="off" />
      </label>
      <label className="grid gap-1 text-sm">
        <Trans>Extra</Trans>
        <select
          className="h-10 w-full rounded-md border border-slate-300 bg-white px-3"
          value={chosen}
          onChange={(e) => setExtraId(e.target.value)}
        >
          <option value="">{t`Bitte wählen`}</option>
          {entries.map((e) => (
            <option key={e.id} value={e.id}>
              {nameOf(e)} – {formatEuro(e.price_cents, i18n.locale)} / {unitLabel(e.unit)}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1 text-sm">
        <Trans>Menge</Trans>
        <Input value={quantity} onChange={(e) => setQuantity(e.target.value)} inputMode="numeric" autoComplete="off" />
      </label>
      <Button type="submit" size="sm" disabled={action.isPending}>
        <Trans>Übernehmen</Trans>
      </Button>
      {error && <FormAlert className="text-sm sm:col-span-4">{error}</FormAlert>}
    </form>
  );
}
