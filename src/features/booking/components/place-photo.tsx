import { useState } from 'react';
import { PLACE_PHOTO, placePhotoUrls } from '../api/place-image';

/** A berth's photo as a transformed thumbnail; the original when the thumbnail fails. */
export function PlacePhoto({ path, alt }: { path: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const urls = placePhotoUrls(path);
  return (
    <img
      src={failed ? urls.original : urls.src}
      srcSet={failed ? undefined : urls.srcSet}
      width={PLACE_PHOTO.width}
      height={PLACE_PHOTO.height}
      alt={alt}
      className="aspect-[16/9] w-full object-cover"
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}
