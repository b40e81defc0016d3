import { useEffect } from 'react';
import { t } from '@lingui/core/macro';

/** Sets document.title to "<page> · Hafen Düsseldorf". */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${t`Hafen Düsseldorf`}`;
  }, [title]);
}
