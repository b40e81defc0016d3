import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PlacePhoto } from '@/features/booking/components/place-photo';
import { placePhotoUrls } from '@/features/booking/api/place-image';
import { env } from '@/lib/env';

describe('berth photos in the booking search', () => {
  it('are Storage thumbnails (render/image, 16:9 cover, 1x and 2x), as storage-js getPublicUrl with transform builds them', () => {
    const urls = placePhotoUrls('places/a b/title.jpg');
    const base = `${env.supabaseUrl}/storage/v1`;
    expect(urls.src).toBe(`${base}/render/image/public/place-images/places/a%20b/title.jpg?width=640&height=360&resize=cover`);
    expect(urls.srcSet).toBe(
      `${urls.src} 1x, ${base}/render/image/public/place-images/places/a%20b/title.jpg?width=1280&height=720&resize=cover 2x`,
    );
    expect(urls.original).toBe(`${base}/object/public/place-images/places/a%20b/title.jpg`);
  });

  it('fall back to the original when the thumbnail cannot be loaded', () => {
    render(<PlacePhoto path="places/p1/title.jpg" alt="Liegeplatz A1" />);
    const img = screen.getByRole('img', { name: 'Liegeplatz A1' }) as HTMLImageElement;
    expect(img.getAttribute('src')).toContain('/render/image/public/place-images/places/p1/title.jpg?width=128&height=96&resize=cover');
    expect(img.getAttribute('width')).toBe('128');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(placePhotoUrls('places/p1/title.jpg').original);
    expect(img.getAttribute('srcset')).toBeNull();
  });
});
