import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { UserEditPage } from '@/features/admin/users/components/user-edit-page';

export const Route = createFileRoute('/{-$locale}/account/admin/users/$id/edit')({
  loader: async ({ context, params }) => {
    const { adminUserQueryOptions } = await import('@/features/admin/users/api/users');
    await context.queryClient.ensureQueryData(adminUserQueryOptions(params.id));
  },
  component: function AdminUserEdit() {
    const { id } = getRouteApi('/{-$locale}/account/admin/users/$id/edit').useParams();
    return <UserEditPage id={id} />;
  },
});
