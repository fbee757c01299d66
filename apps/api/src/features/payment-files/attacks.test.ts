// The attacker's pass on payment files (issue #30): each test is an attack that once worked.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { fourEyesStaff, type TestClient } from '../../../test/http.ts';
import { camt053, sandboxBankIban } from '../../../test/payment-files.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let support: TestClient;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    ({ admin, support } = await fourEyesStaff(app));
  },
  { env: { COFFER_BANK_IBAN: sandboxBankIban }, checksAfterEach: 'ledger' },
);

function upload(client: TestClient, xml: string | Buffer): Promise<LightMyRequestResponse> {
  return client.request('POST', '/api/v1/admin/bank-statements', Buffer.from(xml), {
    'content-type': 'application/xml',
  });
}

async function statementCount(): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM bank_statements',
  );
  return found.rows[0]?.count ?? 0;
}

describe('a statement imported again under another hash', () => {
  it('is refused by its message id, so its credits are not deposited twice', async () => {
    const customer = await createCustomer(app, { balance: '10.00' });
    const xml = camt053(
      [{ amount: '1.00', currency: 'USD', isCredit: true, remittance: customer.wallet.number }],
      { reference: 'STMT-REPLAYED-1' },
    );
    const first = await upload(admin, xml);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().depositRequestCount).toBe(1);

    // One byte more (a trailing space) is another hash, but the same statement.
    const again = await upload(admin, `${xml} `);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.code).toBe('file_already_imported');
    expect(again.json().error.message).toContain('STMT-REPLAYED-1');

    const wallet = await customer.client.get('/api/v1/wallet');
    // 10.00 at sign-up and the 1.00 credit once, posted at once (an admin, under threshold).
    expect(wallet.json().balanceMinor).toBe('1100');
  });
});

describe('one statement uploaded twice at once under two hashes', () => {
  it('is imported once', async () => {
    const customer = await createCustomer(app, { balance: '10.00' });
    const xml = camt053(
      [{ amount: '1.00', currency: 'USD', isCredit: true, remittance: customer.wallet.number }],
      { reference: 'STMT-RACED-1' },
    );
    const answers = await Promise.all([upload(admin, xml), upload(admin, `${xml}\n`)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const wallet = await customer.client.get('/api/v1/wallet');
    expect(wallet.json().balanceMinor).toBe('1100');
  });
});

describe('hostile XML the parser refuses', () => {
  const good = camt053([{ amount: '3.00', isCredit: true, remittance: 'Something' }]);
  const cases: [string, string, RegExp][] = [
    [
      'nesting 200,000 deep',
      good.replace('Something', `${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}`),
      /^line 1, column 1: the XML cannot be read \(Maximum nested tags exceeded\)/,
    ],
    [
      'an element named __proto__',
      good.replace('</Ntry>', '<__proto__><polluted>yes</polluted></__proto__></Ntry>'),
      /^line 1, column 1: the XML cannot be read \(.*__proto__/,
    ],
  ];
  cases.push(
    [
      'a Document with a namespace prefix',
      good
        .replace('<Document xmlns=', '<c:Document xmlns:c=')
        .replace('</Document>', '</c:Document>'),
      /^line 1, column 1: not a camt\.053 statement/,
    ],
    [
      'a second IBAN of another account',
      good.replace(
        `<IBAN>${sandboxBankIban}</IBAN>`,
        `<IBAN>${sandboxBankIban}</IBAN><IBAN>GB82WEST12345698765432</IBAN>`,
      ),
      /^line 8, column 7: IBAN appears 2 times; the standard allows one/,
    ],
    [
      'a second amount',
      good.replace('</Amt>', '</Amt><Amt Ccy="EUR">3000.00</Amt>'),
      /^line 9, column 7: Amt appears 2 times; the standard allows one/,
    ],
    [
      'an amount in another namespace',
      good.replace('</Amt>', '</Amt><x:Amt xmlns:x="urn:example:other" Ccy="EUR">3000.00</x:Amt>'),
      /^line 10, column 34: an element in another namespace \(<x:Amt>\)/,
    ],
    [
      'an entry that declares a namespace of its own',
      good.replace('<Ntry>', '<Ntry xmlns="urn:example:other">'),
      /^line 9, column 7: an element in another namespace \(urn:example:other\)/,
    ],
    [
      'a processing instruction inside the statement',
      good.replace('<Ntry>', '<?bank-import skip-checks?><Ntry>'),
      /: a processing instruction \(<\?bank-import…\?>\) has no place in a statement/,
    ],
    [
      'a second statement id',
      good.replace('</MsgId>', '</MsgId><MsgId>OTHER</MsgId>'),
      /^line 4, column 5: MsgId appears 2 times; the standard allows one/,
    ],
    [
      'a second end-to-end id',
      camt053([{ amount: '3.00', isCredit: true, endToEndId: 'E2E-1' }]).replace(
        '</EndToEndId>',
        '</EndToEndId><EndToEndId>E2E-2</EndToEndId>',
      ),
      /: EndToEndId appears 2 times; the standard allows one/,
    ],
    [
      'a second root element',
      `${good}<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"/>\n`,
      /^line 1, column 1: not well-formed XML \(a file has exactly one root element\)/,
    ],
  );
  for (const [name, xml, message] of cases) {
    it(`refuses ${name} as a clear 400, importing nothing`, async () => {
      const before = await statementCount();
      const refused = await upload(support, xml);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('file_refused');
      expect(refused.json().error.message).toMatch(message);
      expect(await statementCount()).toBe(before);
    });
  }
});

describe('dates at the calendar’s edges', () => {
  // Year 10000 and year 0 are beyond what PostgreSQL's timestamps (or JavaScript's ISO
  // strings) hold: these answered 500 once.
  const cases: [string, string][] = [
    ['/api/v1/admin/card-settlements/sandbox-file?day=9999-12-31', 'day'],
    ['/api/v1/admin/reports?from=0000-01-01&to=0000-01-02&currency=USD', 'from'],
    ['/api/v1/admin/reports?from=9999-12-31&to=9999-12-31&currency=USD', 'from'],
  ];
  for (const [path, field] of cases) {
    it(`GET ${path} is a 400 naming ${field}`, async () => {
      const refused = await support.get(path);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('validation_failed');
      expect(refused.json().error.fields?.[field]).toMatch(/^The books (start|end) on /);
    });
  }
});
