/** The public face of features/account: what other features may use (docs/architecture.md, "Boundaries"). */
export { ContractPdfButton } from '@/features/account/components/contract-pdf';
export { HolderAbsences } from '@/features/account/holder-absences/components';
