import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';

/** The harbour film with a poster; when the video cannot play, the poster and a note stay. */
export function DroneVideoPage() {
  const { t } = useLingui();
  const [failed, setFailed] = useState(false);
  return (
    <Page title={t`Drohnenvideo`} lead={t`Der Hafen Düsseldorf aus der Luft: Einfahrt, Stege, Tankstelle und Hafenbüro.`}>
      <figure className="flex flex-col gap-2">
        {failed ? (
          <img
            src="/media/harbour-poster.svg"
            alt={t`Luftbild des Hafens am Rhein`}
            width={1280}
            height={720}
            className="aspect-video w-full rounded-xl bg-slate-200 object-cover"
          />
        ) : (
          <video
            controls
            preload="none"
            playsInline
            poster="/media/harbour-poster.svg"
            className="aspect-video w-full rounded-xl bg-slate-200"
            aria-label={t`Drohnenvideo des Hafens`}
            onError={() => setFailed(true)}
          >
            <source src="/media/harbour.mp4" type="video/mp4" onError={() => setFailed(true)} />
          </video>
        )}
        <figcaption className="text-sm text-slate-600">
          {failed ? (
            <Trans>Das Video kann gerade nicht abgespielt werden. Das Bild zeigt den Hafen von oben.</Trans>
          ) : (
            <Trans>Tippen Sie auf Abspielen; das Video lädt erst dann (etwa 2 Minuten).</Trans>
          )}
        </figcaption>
      </figure>
    </Page>
  );
}
