import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/form-alert';
import { saveBlob } from '@/lib/download';
import { contractPdfFileName, fetchContractPdf } from '@/features/account/api/offers';
import type { Tables } from '@/lib/database.types';

/**
 * Downloads a contract as PDF/A (rendered by the contract-pdf edge function from the stored,
 * immutable contract, in its language) as "Vertrag-LV-2027-0001.pdf". For the holder's contract
 * card and the back office's contracts table (docs/adr/0047-offers-and-contracts.md).
 */
export function ContractPdfButton({
  contract,
  size,
}: {
  contract: Pick<Tables<'contracts'>, 'id' | 'contract_number' | 'locale'>;
  size?: 'sm' | 'default';
}) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      saveBlob(await fetchContractPdf(contract.id), contractPdfFileName(contract));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        type="button"
        variant="outline"
        size={size}
        onClick={() => void download()}
        disabled={busy}
        aria-busy={busy}
        aria-label={busy ? undefined : t`Vertrag als PDF (${contract.contract_number})`}
      >
        {busy ? <Trans>PDF wird erstellt…</Trans> : <Trans>Vertrag als PDF</Trans>}
      </Button>
      {failed && <FormAlert>{t`Das PDF konnte gerade nicht erstellt werden. Bitte versuchen Sie es gleich noch einmal.`}</FormAlert>}
    </div>
  );
}
