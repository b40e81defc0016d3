import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { BookingFlow } from '@/features/booking/components/booking-flow';
import { finishFlow, getFlow, resetFlow, type Step } from '@/features/booking/hooks/use-booking-flow';
import { searchPlacesQueryOptions } from '@/features/booking/api/search-places';
import { IdentityChoice } from '@/features/identity/components/identity-choice';
import { CodeForm } from '@/features/identity/components/code-form';

/** The five booking steps; the step is in the URL, the data in session storage (a reload keeps the flow). */
export const Route = createFileRoute('/{-$locale}/start/booking/')({
  validateSearch: z.object({ step: z.number().int().min(1).max(5).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ step: search.step }),
  loader: async ({ context, deps }) => {
    const berth = getFlow().berth;
    if (deps.step === 2 && berth) await context.queryClient.prefetchQuery(searchPlacesQueryOptions(berth));
  },
  component: BookingRoute,
});

function BookingRoute() {
  const { step } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <BookingFlow
      requestedStep={step ?? 1}
      goTo={(next: Step, options) => void navigate({ search: { step: next === 1 ? undefined : next }, replace: options?.replace })}
      onBooked={(id) => {
        finishFlow();
        void navigate({ to: '/{-$locale}/start/booking/result/{-$id}', params: (p) => ({ ...p, id }), ignoreBlocker: true }).then(() => resetFlow());
      }}
      identityStep={(props) => <IdentityChoice {...props} />}
      codeStep={({ skip, ...props }) => <CodeForm {...props} extraActions={skip} />}
    />
  );
}
