import { useLingui } from '@lingui/react/macro';

/** The name of a message's kind or requested service, in the reader's language. */
export function useMessageKindLabel() {
  const { t } = useLingui();
  const services: Record<string, string> = {
    boat_lift: t`Bootskran`,
    mechanic: t`Mechaniker`,
    diesel: t`Diesel`,
    ice: t`Eis und Kühlbox`,
    washing_machine: t`Waschmaschine`,
    charter: t`Charter`,
    skipper_training: t`Skipperschulung`,
    parking: t`Parken`,
    other: t`Sonstiges`,
  };
  return (m: { kind: string; service: string | null }) =>
    m.kind === 'service_request' ? t`Serviceanfrage: ${services[m.service ?? 'other'] ?? m.service}` : t`Nachricht`;
}
