import { createFileRoute } from '@tanstack/react-router';
import { DroneVideoPage } from '@/features/media/components/drone-video-page';

export const Route = createFileRoute('/{-$locale}/drone-video')({
  component: DroneVideoPage,
});
