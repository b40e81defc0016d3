/** The public face of features/harbour/inbox: what other features may use (docs/architecture.md, "Boundaries"). */
export type { InboxKind } from '@/features/harbour/inbox/api/inbox';
export { useMessageKindLabel } from '@/features/harbour/inbox/components/inbox-labels';
export { useInboxRealtime } from '@/features/harbour/inbox/hooks/use-inbox-realtime';
