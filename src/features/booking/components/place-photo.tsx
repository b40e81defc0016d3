import { useState } from 'react';
import { PLACE_THUMB, placePhotoUrls } from '@/features/booking/api/place-image';

/** A berth's photo as a transformed thumbnail (4:3 strip size by default); the original when the thumbnail fails. */
export function PlacePhoto({
  path,
  alt,
  size = PLACE_THUMB,
  className = 'h-16 w-auto aspect-[4/3] rounded-md object-cover',
}: {
  path: string;
  alt: string;
  size?: { width: number; height: number };
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const urls = placePhotoUrls(path, size);
  return (
    <img
      src={failed ? urls.original : urls.src}
      srcSet={failed ? undefined : urls.srcSet}
      width={size.width}
      height={size.height}
      alt={alt}
      data-path={path}
      className={className}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}
