import { useEffect } from 'react';
import { t } from '@lingui/core/macro';

/** "<page> · Hafen Düsseldorf" (also used for the prerendered pages' <title>). */
export const documentTitle = (title: string) => `${title} · ${t`Hafen Düsseldorf`}`;

/** Sets document.title to "<page> · Hafen Düsseldorf". */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
