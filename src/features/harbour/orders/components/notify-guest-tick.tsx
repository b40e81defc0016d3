import { useId } from 'react';
import { Trans } from '@lingui/react/macro';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';

/** The tick in a confirmation: tell the guest of this change by e-mail (on unless staff untick it). */
export function NotifyGuestTick({ email, checked, onChange }: { email: string | null; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  if (!email) return null;
  return (
    <div className="flex items-start gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} className="mt-0.5" />
      <Label htmlFor={id} className="font-normal leading-snug">
        <Trans>Gast per E-Mail informieren ({email})</Trans>
      </Label>
    </div>
  );
}
