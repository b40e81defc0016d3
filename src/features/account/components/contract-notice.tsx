import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { berlinDay, formatDay } from '@/lib/dates';
import { errorMessage } from '@/lib/errors/guest-messages';
import { useGiveNotice } from '@/features/account/api/contract-notice';

/**
 * The holder's notice of a contract (issue 42 deliverable 6, ADR 0052): until the notice
 * deadline a button (confirmed first); the deadline explained; after it, why notice is no longer
 * possible online. The database decides (give_contract_notice refuses after the deadline). A
 * contract whose terms do not renew it says that it ends with its season.
 */
export function ContractNotice({
  contract,
}: {
  contract: {
    id: string;
    contract_number: string;
    status: string;
    notice_deadline: string;
    ends_on: string;
    terms: { renews_automatically: boolean } | null;
  };
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const notice = useGiveNotice();
  const deadline = formatDay(contract.notice_deadline, i18n.locale);
  const end = formatDay(contract.ends_on, i18n.locale);
  if (contract.status === 'noticed') {
    return (
      <p className="text-sm" role="status">
        <Trans>Sie haben diesen Vertrag gekündigt. Er endet am {end} und wird nicht verlängert.</Trans>
      </p>
    );
  }
  if (contract.status !== 'active') return null;
  // Terms under which the contract ends with its season need no notice (the renewal run passes it by).
  if (contract.terms?.renews_automatically === false) {
    return (
      <p className="text-sm" data-testid="contract-ends">
        <Trans>
          Nach seinen Vertragsbedingungen endet dieser Vertrag am {end} und verlängert sich nicht; eine Kündigung ist nicht nötig.
        </Trans>
      </p>
    );
  }
  const open_ = berlinDay(new Date()) <= contract.notice_deadline;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <p>
        {open_ ? (
          <Trans>
            Ohne Kündigung verlängert sich der Vertrag um die nächste Saison. Sie können bis zum {deadline} zum Saisonende ({end}) kündigen.
          </Trans>
        ) : (
          <Trans>
            Die Kündigungsfrist ist am {deadline} abgelaufen; eine Kündigung ist online nicht mehr möglich. Bitte wenden Sie sich an das
            Hafenbüro.
          </Trans>
        )}
      </p>
      {notice.error && !open && <FormAlert>{errorMessage(notice.error)}</FormAlert>}
      {open_ && (
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Button variant="outline" className="self-start">
              <Trans>Vertrag kündigen</Trans>
            </Button>
          }
          title={<Trans>Vertrag {contract.contract_number} kündigen?</Trans>}
          description={
            <Trans>Der Vertrag endet am {end} und wird nicht verlängert. Der Liegeplatz wird danach anderweitig vergeben.</Trans>
          }
          confirmLabel={t`Jetzt kündigen`}
          destructive
          busy={notice.isPending}
          error={notice.error ? errorMessage(notice.error) : undefined}
          onConfirm={() => notice.mutate(contract.id, { onSuccess: () => setOpen(false) })}
        />
      )}
    </div>
  );
}
