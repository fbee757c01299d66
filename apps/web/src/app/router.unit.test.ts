import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client.ts';
import { appRoutes } from './router.tsx';

describe("the app's route table", () => {
  const table = appRoutes(createQueryClient());
  /** The innermost route `pathname` shows: its page module, or its path. */
  const pageOf = (pathname: string) => {
    const last = matchRoutes(table, pathname)?.at(-1);
    return { page: last?.route.handle ?? last?.route.path, params: last?.params };
  };

  it('shows each page at its address, whatever the case (PRODUCT.md section 2)', () => {
    expect(pageOf('/').page).toEqual({ pageModule: 'src/features/landing/pages/landing-page.tsx' });
    expect(pageOf('/Dashboard').page).toEqual({
      pageModule: 'src/features/wallet/pages/dashboard-page.tsx',
    });
    expect(pageOf('/dashboard/').page).toEqual({
      pageModule: 'src/features/wallet/pages/dashboard-page.tsx',
    });
  });

  it('prefers a static segment to a parameter, and both to a splat', () => {
    const id = '6f1c4c52-0000-4000-8000-000000000000';
    expect(pageOf(`/admin/users/${id}`)).toEqual({
      page: { pageModule: 'src/features/admin/pages/customer-detail-page.tsx' },
      params: { userId: id },
    });
    expect(pageOf(`/Admin/${id}`)).toMatchObject({ page: ':userId', params: { userId: id } });
    expect(pageOf('/admin/users').page).toBe('users');
    expect(pageOf('/admin/nope/nope').page).toBe('*');
    expect(pageOf('/aboutus').page).toBe('aboutus');
    expect(pageOf('/no-such-page')).toMatchObject({ page: '*', params: { '*': 'no-such-page' } });
  });
});
