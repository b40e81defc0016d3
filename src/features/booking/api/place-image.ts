import { env } from '@/lib/env';

/** A berth's large photo is 16:9 and at most half the page wide (two columns from md). */
export const PLACE_PHOTO = { width: 640, height: 360 } as const;
/** A thumbnail in a berth card's photo strip (4:3). */
export const PLACE_THUMB = { width: 128, height: 96 } as const;

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * A berth photo as Storage's image transformation serves it (render/image, as storage-js'
 * getPublicUrl with `transform` builds it): cropped to `size` (default 16:9 at 640x360), twice that for dense
 * screens, WebP for browsers that take it. `original` is the untransformed object, the
 * fallback when a project has transformations switched off.
 */
export function placePhotoUrls(path: string, size: { width: number; height: number } = PLACE_PHOTO) {
  const rendered = (scale: number) =>
    `${env.supabaseUrl}/storage/v1/render/image/public/place-images/${encodePath(path)}?width=${size.width * scale}&height=${size.height * scale}&resize=cover`;
  return {
    src: rendered(1),
    srcSet: `${rendered(1)} 1x, ${rendered(2)} 2x`,
    original: `${env.supabaseUrl}/storage/v1/object/public/place-images/${encodePath(path)}`,
  };
}
