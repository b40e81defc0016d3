/** The public face of features/account: what other features may use (docs/architecture.md, "Boundaries"). */
export { ContractPdfButton } from '@/features/account/components/contract-pdf';
