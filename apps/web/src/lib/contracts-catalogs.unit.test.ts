import { readFileSync } from 'node:fs';
import { errorCodes } from '@coffer/contracts/errors';
import { describe, expect, it } from 'vitest';
import { browserContractMessages } from '../../contracts-catalogs.ts';

const germanCatalog = readFileSync(
  new URL('../../../../packages/contracts/locales/de.po', import.meta.url),
  'utf8',
);

describe("the browser's contracts catalog", () => {
  const messages = browserContractMessages(germanCatalog);

  it("keeps the schemas' refusals, which the browser writes beside a field itself", () => {
    expect(messages['An account number has 10 digits']).toBeDefined();
  });

  it("keeps a refusal that is both a schema's and an error code's", () => {
    expect(errorCodes.password_too_weak.message).toBe('Password is too weak');
    expect(messages[errorCodes.password_too_weak.message]).toBeDefined();
  });

  it("leaves out the API's error answers, which arrive in the page's language", () => {
    expect(germanCatalog).toContain(`msgid "${errorCodes.own_request.message}"`);
    expect(messages[errorCodes.own_request.message]).toBeUndefined();
  });

  it('keeps an error message the browser shows without an answer', () => {
    expect(messages[errorCodes.internal.message]).toBeDefined();
    expect(messages[errorCodes.internal.message]).not.toEqual(errorCodes.internal.message);
  });
});
