import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { addBerthBlock, type BlockError } from '@/features/harbour/calendar/api/berth-block';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { DatePicker } from '@/components/ui/date-picker';

/** Staff block a berth for maintenance (or reserve it) for whole days; overlaps are refused with a clear message. */
export function BlockForm({
  places,
  defaultDay,
  defaultTo,
  onSaved,
}: {
  places: { id: string; name: string }[];
  defaultDay: string;
  defaultTo?: string;
  onSaved?: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const queryClient = useQueryClient();
  const [placeId, setPlaceId] = useState(places[0]?.id ?? '');
  const [from, setFrom] = useState(defaultDay);
  const [to, setTo] = useState(defaultTo ?? defaultDay);
  const [reason, setReason] = useState<'maintenance' | 'reserved'>('maintenance');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true } | { ok: false; error: BlockError } | null>(null);

  const messages: Record<BlockError, string> = {
    overlap: t`Der Liegeplatz ist in diesem Zeitraum schon belegt oder gesperrt. Bitte einen anderen Zeitraum oder Liegeplatz wählen.`,
    invalid_period: t`Das Enddatum darf nicht vor dem Anfangsdatum liegen.`,
    too_long: t`Eine Sperre darf höchstens 400 Tage dauern.`,
    unknown: t`Die Sperre konnte nicht gespeichert werden. Bitte erneut versuchen.`,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (to < from) return setResult({ ok: false, error: 'invalid_period' });
    setBusy(true);
    const { error } = await addBerthBlock({ placeId, from, to, reason, note });
    setBusy(false);
    setResult(error ? { ok: false, error } : { ok: true });
    if (!error) {
      await queryClient.invalidateQueries({ queryKey: harbourKeys.all });
      onSaved?.();
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label={t`Liegeplatz sperren`}
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2"
    >
      <h2 className="text-lg font-semibold sm:col-span-2">
        <Trans>Liegeplatz sperren</Trans>
      </h2>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-place`}>
          <Trans>Liegeplatz</Trans>
        </Label>
        <select
          id={`${id}-place`}
          className="h-9 rounded-md border border-slate-300 bg-white px-2"
          value={placeId}
          onChange={(e) => setPlaceId(e.target.value)}
        >
          {places.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-reason`}>
          <Trans>Art</Trans>
        </Label>
        <select
          id={`${id}-reason`}
          className="h-9 rounded-md border border-slate-300 bg-white px-2"
          value={reason}
          onChange={(e) => setReason(e.target.value === 'reserved' ? 'reserved' : 'maintenance')}
        >
          <option value="maintenance">{t`Wartung`}</option>
          <option value="reserved">{t`Gesperrt`}</option>
        </select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-from`}>
          <Trans>Von</Trans>
        </Label>
        <DatePicker id={`${id}-from`} required value={from} onChange={setFrom} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-to`}>
          <Trans>Bis einschließlich</Trans>
        </Label>
        <DatePicker id={`${id}-to`} required value={to} onChange={setTo} />
      </div>
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor={`${id}-note`}>
          <Trans>Notiz (optional)</Trans>
        </Label>
        <Input id={`${id}-note`} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <div className="flex items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy || !placeId}>
          <Trans>Sperre speichern</Trans>
        </Button>
        {result?.ok && (
          <p role="status" className="text-sm text-green-700">
            <Trans>Sperre gespeichert.</Trans>
          </p>
        )}
      </div>
      {result && !result.ok && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2">
          {messages[result.error]}
        </p>
      )}
    </form>
  );
}
