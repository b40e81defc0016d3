import { lazy } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { BookingFlow } from '@/features/booking/components/booking-flow';
import { loadQueryClient } from '@/lib/query';
import { finishFlow, resetFlow, type Step } from '@/features/booking/hooks/use-booking-flow';
import type { Order } from '@/features/orders/api/types';

// Steps 3 and 4 load when the flow reaches them (the booking flow shows them in a Suspense).
const IdentityChoice = lazy(() => import('@/features/identity/components/identity-choice').then((m) => ({ default: m.IdentityChoice })));
const CodeForm = lazy(() => import('@/features/identity/components/code-form').then((m) => ({ default: m.CodeForm })));

/** The five booking steps; the step is in the URL, the data in session storage (a reload keeps the flow). */
export const Route = createFileRoute('/{-$locale}/start/booking/')({
  // Step 1 renders without react-query (useAppQuery); steps 2 and 5 load its client with their code.
  staticData: { withoutQueryClient: true },
  // Route options are in the initial bundle of every page: no zod here, and the search code
  // is imported inside the loader.
  validateSearch: (search: Record<string, unknown>): { step?: number } => {
    const step = Number(search.step);
    return { step: Number.isInteger(step) && step >= 1 && step <= 5 ? step : undefined };
  },
  loaderDeps: ({ search }) => ({ step: search.step }),
  loader: async ({ context, deps }) => {
    if (deps.step !== 2) return;
    // The flow's code comes with the page (its component's chunk): not in every page's first download.
    const { getFlow } = await import('@/features/booking/hooks/use-booking-flow');
    const berth = getFlow().berth;
    if (berth) {
      const { searchPlacesQueryOptions } = await import('@/features/booking/api/search-places');
      await context.queryClient.prefetchQuery(searchPlacesQueryOptions(berth));
    }
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
      onBooked={(order) => {
        const id = order.id;
        finishFlow();
        // create_booking returns the order row: the result page needs no second round trip. (The
        // orders feature loads here, with the result page, not with step 1.)
        void Promise.all([import('@/features/orders/api/order'), loadQueryClient()])
          .then(([{ orderQueryOptions }, queryClient]) => {
            queryClient.setQueryData(orderQueryOptions(id).queryKey, order as unknown as Order);
            return navigate({ to: '/{-$locale}/start/booking/result/{-$id}', params: (p) => ({ ...p, id }), ignoreBlocker: true });
          })
          .then(() => resetFlow());
      }}
      identityStep={(props) => <IdentityChoice {...props} />}
      codeStep={({ skip, ...props }) => <CodeForm {...props} extraActions={skip} />}
    />
  );
}
