// An admin made by `npm run create-admin` got a password someone else has seen: until they
// choose their own, the API answers them only on the routes that let them do that.
import { describe, expect, it } from 'vitest';
import type { OpenedTestApp } from '../../../test/app.ts';
import { useTestApp } from '../../../test/app.ts';
import { staffClient, strongPassword } from '../../../test/http.ts';

let opened: OpenedTestApp;
useTestApp((ready) => {
  opened = ready;
});

const newPassword = 'Quiet-Meadow-Compass-97';

describe('a password set by someone else', () => {
  it('closes every signed-in route but the session, sign-out and the password change, until it is changed', async () => {
    const { client, user } = await staffClient(opened.app, 'admin');
    await opened.db.query('UPDATE users SET must_change_password = true WHERE id = $1', [user.id]);

    const refused = await client.get('/api/v1/admin/users?limit=5');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'password_change_required' } });
    for (const url of ['/api/v1/profile', '/api/v1/profile/sessions', '/api/v1/notifications']) {
      expect((await client.get(url)).json(), url).toMatchObject({
        error: { code: 'password_change_required' },
      });
    }
    expect(
      (await client.post('/api/v1/profile/totp/setup', { currentPassword: strongPassword })).json(),
    ).toMatchObject({ error: { code: 'password_change_required' } });
    const session = await client.get('/api/v1/auth/session');
    expect(session.json()).toMatchObject({ user: { id: user.id, mustChangePassword: true } });
    expect((await client.get('/api/v1/auth/me')).json()).toMatchObject({
      mustChangePassword: true,
    });

    const changed = await client.post('/api/v1/profile/password', {
      currentPassword: strongPassword,
      newPassword,
      endOtherSessions: true,
    });
    expect(changed.statusCode).toBe(204);
    expect((await client.get('/api/v1/auth/session')).json()).toMatchObject({
      user: { mustChangePassword: false },
    });
    expect((await client.get('/api/v1/admin/users?limit=5')).statusCode).toBe(200);
    expect((await client.get('/api/v1/profile')).statusCode).toBe(200);
  });

  it('lets them sign out', async () => {
    const { client, user } = await staffClient(opened.app, 'admin');
    await opened.db.query('UPDATE users SET must_change_password = true WHERE id = $1', [user.id]);
    expect((await client.post('/api/v1/auth/logout')).statusCode).toBe(204);
    expect((await client.get('/api/v1/auth/session')).json()).toEqual({ user: null });
  });
});
