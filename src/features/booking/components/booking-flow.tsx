import { lazy, Suspense, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Stepper } from '@/components/ui/stepper';
import { identityQueryOptions } from '@/lib/auth';
import { loadQueryClient, peekQueryClient, useAppQuery } from '@/lib/query';
import { decimalInput } from '@/lib/numbers';
import { bookingKeys } from '@/features/booking/api/keys';
import { profileQueryOptions } from '@/features/booking/api/profile';
import {
  getFlow,
  reachableStep,
  updateFlow,
  useBookingFlow,
  type FlowIdentity,
  type Step,
} from '@/features/booking/hooks/use-booking-flow';
import { defaultBerthData } from '@/features/booking/schemas/berth-values';
import { Button } from '@/features/booking/components/clsx-ui';
import { LeaveGuard } from '@/features/booking/components/leave-guard';
import { initialPerson, readStoredPerson } from '@/features/booking/components/person-draft';
import { StepBerthData } from '@/features/booking/components/step-berth-data';

// Step 1 is the prerendered first screen; the later steps (their dialogs, the quote, the
// booking call) load when the flow reaches them, not with the page.
// Steps 2 and 5 query through react-query: its client loads with them (step 1 does without it).
const StepChooseBerth = lazy(() =>
  Promise.all([import('@/features/booking/components/step-choose-berth'), loadQueryClient()]).then(([m]) => ({
    default: m.StepChooseBerth,
  })),
);
const StepSummary = lazy(() =>
  Promise.all([import('@/features/booking/components/step-summary'), loadQueryClient()]).then(([m]) => ({ default: m.StepSummary })),
);
// What is being booked, from step 2 on (beside the step from 1024 px, a compact line above it on phones).
const BookingSummary = lazy(() =>
  Promise.all([import('@/features/booking/components/booking-summary'), loadQueryClient()]).then(([m]) => ({ default: m.default })),
);

export interface IdentityStepProps {
  initial?: { email?: string; firstName?: string; lastName?: string };
  onDone: (result: Omit<FlowIdentity, 'skipped'>) => void;
}

export interface CodeStepProps {
  email: string;
  newCustomer: boolean;
  onVerified: () => void;
  /** The skip action, rendered next to the confirm button. */
  skip: ReactNode;
}

/**
 * The booking flow of spec section 4: berth data, your berth, how to proceed, verify e-mail,
 * summary. The step is in the URL (?step=), the data in session storage; the identity steps
 * come from the identity feature (the route composes them).
 */
export function BookingFlow({
  requestedStep,
  goTo,
  onBooked,
  identityStep,
  codeStep,
}: {
  requestedStep: number;
  goTo: (step: Step, options?: { replace?: boolean }) => void;
  /** The booked order row (create_booking's result). */
  onBooked: (order: { id: string } & Record<string, unknown>) => void;
  identityStep: (props: IdentityStepProps) => ReactNode;
  codeStep: (props: CodeStepProps) => ReactNode;
}) {
  const { t, i18n } = useLingui();
  const flow = useBookingFlow();
  const identity = useAppQuery(identityQueryOptions);
  const loggedIn = identity.data?.status === 'loggedIn';
  const userId = identity.data && 'userId' in identity.data ? identity.data.userId : undefined;
  const profile = useAppQuery({ ...profileQueryOptions(userId ?? ''), enabled: loggedIn && !!userId });
  const step = Math.min(requestedStep, reachableStep(flow, loggedIn)) as Step;
  const titles = [t`Liegeplatzdaten`, t`Ihr Liegeplatz`, t`Wie möchten Sie fortfahren?`, t`E-Mail bestätigen`, t`Zusammenfassung`];

  let body: ReactNode = null;
  if (identity.isPending || (loggedIn && profile.isPending)) {
    body = (
      <p role="status">
        <Trans>Einen Moment …</Trans>
      </p>
    );
  } else if (step === 1) {
    const p = profile.data;
    const fromProfile =
      !flow.berth && p?.boat_name
        ? {
            boatName: p.boat_name,
            boatTag: p.boat_tag ?? '',
            boatLength: decimalInput(p.boat_length, i18n.locale),
            boatWidth: decimalInput(p.boat_width, i18n.locale),
            boatDraught: decimalInput(p.boat_draught, i18n.locale),
          }
        : undefined;
    body = (
      <StepBerthData
        key={fromProfile ? 'profile' : 'plain'}
        initial={flow.berth ?? (fromProfile ? { ...defaultBerthData(), ...fromProfile } : undefined)}
        onSubmit={(berth) => {
          updateFlow({ berth, place: undefined, notice: undefined });
          goTo(2);
        }}
      />
    );
  } else if (step === 2 && flow.berth) {
    body = (
      <StepChooseBerth
        berth={flow.berth}
        notice={flow.notice}
        onBack={() => goTo(1)}
        onChoose={(place) => {
          updateFlow({ place, notice: undefined });
          goTo(loggedIn || (flow.identity && (flow.identity.verified || flow.identity.skipped)) ? 5 : 3);
        }}
      />
    );
  } else if (step === 3) {
    body = loggedIn
      ? null
      : identityStep({
          initial: flow.identity ?? readStoredPerson(),
          onDone: (result) => {
            updateFlow({ identity: { ...result, skipped: false } });
            goTo(result.verified ? 5 : 4);
          },
        });
  } else if (step === 4 && flow.identity) {
    const id = flow.identity;
    body = (
      <div className="flex flex-col gap-4">
        <p className="text-slate-800">
          <Trans>
            Wir haben einen 6-stelligen Code an <strong>{id.email}</strong> gesendet. Geben Sie ihn hier ein, um Ihre E-Mail-Adresse zu
            bestätigen.
          </Trans>
        </p>
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          <Trans>
            Sie können diesen Schritt überspringen und später bestätigen. Ohne Bestätigung bleibt Ihre Buchung unbestätigt und verfällt nach
            24 Stunden (spätestens bei Anreise). Bestätigen können Sie jederzeit von jedem Gerät, indem Sie sich mit einem E-Mail-Code
            anmelden.
          </Trans>
        </p>
        {codeStep({
          email: id.email,
          newCustomer: id.mode === 'new',
          onVerified: () => {
            updateFlow({ identity: { ...id, verified: true, skipped: false } });
            void peekQueryClient()?.invalidateQueries({ queryKey: bookingKeys.all });
            goTo(5);
          },
          skip: (
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                updateFlow({ identity: { ...id, skipped: true } });
                goTo(5);
              }}
            >
              <Trans>Überspringen und später bestätigen</Trans>
            </Button>
          ),
        })}
      </div>
    );
  } else if (step === 5 && flow.berth && flow.place) {
    {
      const email = identity.data?.status === 'loggedIn' ? identity.data.email : undefined;
      body = (
        <StepSummary
          berth={flow.berth}
          place={flow.place}
          loggedIn={loggedIn}
          emailLocked={loggedIn || !!flow.identity?.email}
          initial={initialPerson({
            draft: getFlow().person,
            profile: profile.data,
            stored: readStoredPerson(),
            identity: flow.identity,
            email,
          })}
          onBooked={onBooked}
          onBerthTaken={() => {
            updateFlow({ place: undefined, notice: 'berth-taken' });
            void peekQueryClient()?.invalidateQueries({ queryKey: bookingKeys.all });
            goTo(2, { replace: true });
          }}
        />
      );
    }
  }

  return (
    <Page title={t`Liegeplatz buchen`}>
      <LeaveGuard />
      <Stepper steps={titles} current={step} label={t`Buchungsschritte`} />
      <WithSummary
        show={step >= 2 && !!flow.berth}
        summary={flow.berth && <BookingSummary berth={flow.berth} place={flow.place} saleCode={flow.saleCode} />}
      >
        {step === 3 && loggedIn && identity.data?.status === 'loggedIn' ? (
          <Section title={titles[2]}>
            <p>
              <Trans>Sie sind angemeldet als {identity.data.email}.</Trans>
            </p>
            <div>
              <Button onClick={() => goTo(5)}>
                <Trans>Weiter</Trans>
              </Button>
            </div>
          </Section>
        ) : (
          <Section title={t`Schritt ${step}: ${titles[step - 1]}`}>
            <Suspense
              fallback={
                <p role="status">
                  <Trans>Einen Moment …</Trans>
                </p>
              }
            >
              {body}
            </Suspense>
          </Section>
        )}
      </WithSummary>
    </Page>
  );
}

/** From step 2 on: the step beside the summary (from 1024 px; the summary first, compact, below that). */
function WithSummary({ show, summary, children }: { show: boolean; summary: ReactNode; children: ReactNode }) {
  if (!show) return children;
  return (
    <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start lg:gap-6">
      <div className="lg:col-start-2 lg:row-start-1 lg:self-stretch">
        <Suspense fallback={null}>{summary}</Suspense>
      </div>
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">{children}</div>
    </div>
  );
}
