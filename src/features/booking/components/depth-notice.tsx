import { useQuery } from '@tanstack/react-query';
import { Plural } from '@lingui/react/macro';
import { FormAlert } from '@/components/form-alert';
import { searchDepthNoticeQueryOptions } from '@/features/booking/api/search-depth-notice';
import type { BerthDataValues } from '@/features/booking/schemas/berth-values';

/**
 * Why the search shows fewer berths at low water (ADR 0053 "Draught against depth"): how many it
 * left out as too shallow for the draught at the stay's forecast (or the last known) level.
 * Nothing when no draught was given or none was left out.
 */
export function DepthNotice({ berth, className }: { berth: BerthDataValues; className?: string }) {
  const notice = useQuery(searchDepthNoticeQueryOptions(berth));
  const n = notice.data;
  if (!n || n.too_shallow === 0 || n.level_cm === null) return null;
  const level = n.level_cm;
  const margin = n.margin_cm;
  return (
    <FormAlert variant="warning" box role="status" className={className}>
      {n.level_source === 'forecast' ? (
        <Plural
          value={n.too_shallow}
          one={`# Liegeplatz ist beim für Ihren Aufenthalt vorhergesagten Rheinpegel (${level} cm am Pegel Düsseldorf) zu flach für Ihren Tiefgang und wird nicht angezeigt (wir halten ${margin} cm Wasser unter dem Kiel frei).`}
          other={`# Liegeplätze sind beim für Ihren Aufenthalt vorhergesagten Rheinpegel (${level} cm am Pegel Düsseldorf) zu flach für Ihren Tiefgang und werden nicht angezeigt (wir halten ${margin} cm Wasser unter dem Kiel frei).`}
        />
      ) : (
        <Plural
          value={n.too_shallow}
          one={`# Liegeplatz ist beim zuletzt gemessenen Rheinpegel (${level} cm am Pegel Düsseldorf) zu flach für Ihren Tiefgang und wird nicht angezeigt (wir halten ${margin} cm Wasser unter dem Kiel frei).`}
          other={`# Liegeplätze sind beim zuletzt gemessenen Rheinpegel (${level} cm am Pegel Düsseldorf) zu flach für Ihren Tiefgang und werden nicht angezeigt (wir halten ${margin} cm Wasser unter dem Kiel frei).`}
        />
      )}
    </FormAlert>
  );
}
